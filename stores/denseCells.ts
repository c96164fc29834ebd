/**
 * The cells of the Postgres dense search's inverted-file index (stores/postgresDenseCells.ts):
 * unit centroids found by spherical k-means over a sample of a model's vectors. A row belongs to
 * the cell of the centroid with the largest dot product; a search reads only the rows of the cells
 * nearest its query. Centroids are unit length, so a vector's own length (or the scale of its
 * quantized bytes) never changes which cell it belongs to.
 */

import { seededRandom } from '../contracts/seededRandom';

export interface Centroids {
  count: number;
  dimension: number;
  /** `count` unit vectors of `dimension` values, one after another. */
  values: Float32Array;
}

function normalizeInPlace(values: Float32Array, offset: number, dimension: number): boolean {
  let squares = 0;
  for (let i = 0; i < dimension; i += 1) squares += (values[offset + i] as number) ** 2;
  if (squares === 0) return false;
  const scale = 1 / Math.sqrt(squares);
  for (let i = 0; i < dimension; i += 1) values[offset + i] = (values[offset + i] as number) * scale;
  return true;
}

/**
 * The dot product of centroid `cell` with `dimension` values of `vector` from `offset`. Four
 * running sums: nearly all of a training's time is here, and they ran 1.5-1.8x faster than one.
 */
function dotWith(centroids: Centroids, cell: number, vector: ArrayLike<number>, offset = 0): number {
  const { dimension, values } = centroids;
  const base = cell * dimension;
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let i = 0;
  for (; i + 3 < dimension; i += 4) {
    a += (values[base + i] as number) * (vector[offset + i] as number);
    b += (values[base + i + 1] as number) * (vector[offset + i + 1] as number);
    c += (values[base + i + 2] as number) * (vector[offset + i + 2] as number);
    d += (values[base + i + 3] as number) * (vector[offset + i + 3] as number);
  }
  for (; i < dimension; i += 1) a += (values[base + i] as number) * (vector[offset + i] as number);
  return a + b + c + d;
}

/** The cell whose centroid has the largest dot product with the vector (ties: the lower cell). */
export function nearestCell(centroids: Centroids, vector: ArrayLike<number>, offset = 0): number {
  let best = 0;
  let bestDot = -Infinity;
  for (let cell = 0; cell < centroids.count; cell += 1) {
    const dot = dotWith(centroids, cell, vector, offset);
    if (dot > bestDot) {
      bestDot = dot;
      best = cell;
    }
  }
  return best;
}

/** The `probes` cells nearest the query, nearest first. */
export function nearestCells(centroids: Centroids, query: ArrayLike<number>, probes: number): number[] {
  const dots = Array.from({ length: centroids.count }, (_, cell) => ({ cell, dot: dotWith(centroids, cell, query) }));
  dots.sort((a, b) => b.dot - a.dot || a.cell - b.cell);
  return dots.slice(0, Math.max(0, probes)).map((d) => d.cell);
}

/** The cell of each of `rows` quantized vectors (sluice_quantized's bytes, b standing for b - 128). */
export function cellsOfQuantized(centroids: Centroids, bytes: Uint8Array, rows: number): Int32Array {
  const { dimension } = centroids;
  const vector = new Float32Array(dimension);
  const cells = new Int32Array(rows);
  for (let row = 0; row < rows; row += 1) {
    for (let i = 0; i < dimension; i += 1) vector[i] = (bytes[row * dimension + i] as number) - 128;
    cells[row] = nearestCell(centroids, vector);
  }
  return cells;
}

/**
 * Spherical k-means (k-means++ seeding, then `iterations` rounds of assign and re-centre) over
 * `rows` vectors of `dimension` values, one after another. A zero vector is left out; a cell left
 * empty by a round takes the vector its centroid fits worst (a second, a random one), so no cell is left empty. Fewer
 * vectors than `count` give one cell each.
 */
export function trainCentroids(
  sample: Float32Array,
  dimension: number,
  count: number,
  iterations: number,
  seed = 1,
): Centroids {
  const rows = Math.floor(sample.length / dimension);
  const points = new Float32Array(sample);
  const kept: number[] = [];
  for (let row = 0; row < rows; row += 1) if (normalizeInPlace(points, row * dimension, dimension)) kept.push(row);
  const k = Math.max(1, Math.min(count, kept.length));
  const values = new Float32Array(k * dimension);
  const centroids: Centroids = { count: 0, dimension, values };
  if (kept.length === 0) return { count: 1, dimension, values: new Float32Array(dimension) };
  const next = seededRandom(seed);
  // k-means++: each next seed is drawn with probability growing with its distance to the seeds so far.
  const distance = new Float64Array(kept.length).fill(Infinity);
  let pick = kept[Math.floor(next() * kept.length)] as number;
  for (let cell = 0; cell < k; cell += 1) {
    values.set(points.subarray(pick * dimension, (pick + 1) * dimension), cell * dimension);
    centroids.count = cell + 1;
    let total = 0;
    for (const [j, row] of kept.entries()) {
      const d = Math.max(0, 1 - dotWith(centroids, cell, points, row * dimension));
      distance[j] = Math.min(distance[j] as number, d);
      total += distance[j] as number;
    }
    let target = next() * total;
    pick = kept[kept.length - 1] as number;
    for (const [j, row] of kept.entries()) {
      target -= distance[j] as number;
      if (target <= 0) {
        pick = row;
        break;
      }
    }
  }
  for (let round = 0; round < iterations; round += 1) {
    const sums = new Float32Array(k * dimension);
    const sizes = new Int32Array(k);
    let worst = { j: 0, dot: Infinity };
    for (const [j, row] of kept.entries()) {
      const cell = nearestCell(centroids, points, row * dimension);
      sizes[cell] = (sizes[cell] as number) + 1;
      const dot = dotWith(centroids, cell, points, row * dimension);
      if (dot < worst.dot) worst = { j, dot };
      for (let i = 0; i < dimension; i += 1) {
        sums[cell * dimension + i] = (sums[cell * dimension + i] as number) + (points[row * dimension + i] as number);
      }
    }
    for (let cell = 0; cell < k; cell += 1) {
      if (sizes[cell] === 0 || !normalizeInPlace(sums, cell * dimension, dimension)) {
        const row = kept[worst.j] as number;
        sums.set(points.subarray(row * dimension, (row + 1) * dimension), cell * dimension);
        worst = { j: Math.floor(next() * kept.length), dot: Infinity };
      }
    }
    values.set(sums);
  }
  return centroids;
}
