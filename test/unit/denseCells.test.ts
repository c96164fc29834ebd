import { cellsOfQuantized, nearestCell, nearestCells, trainCentroids } from '../../stores/denseCells';
import { cellCountFor } from '../../stores/postgresDenseCells';

// The k-means of the Postgres store's dense cells (stores/denseCells.ts).

/** A deterministic pseudo-random generator in [-0.5, 0.5), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  };
}

const DIMENSION = 16;

/** `perCluster` points around each of `clusters` axes (axis i has value 1 in dimension i), scaled at random. */
function clustered(clusters: number, perCluster: number, seed = 3): { sample: Float32Array; labels: number[] } {
  const next = random(seed);
  const sample = new Float32Array(clusters * perCluster * DIMENSION);
  const labels: number[] = [];
  for (let c = 0; c < clusters; c += 1) {
    for (let p = 0; p < perCluster; p += 1) {
      const row = c * perCluster + p;
      const scale = 1 + next() + 0.5;
      for (let d = 0; d < DIMENSION; d += 1) sample[row * DIMENSION + d] = scale * ((d === c ? 1 : 0) + next() * 0.3);
      labels.push(c);
    }
  }
  return { sample, labels };
}

function rowOf(sample: Float32Array, row: number): Float32Array {
  return sample.subarray(row * DIMENSION, (row + 1) * DIMENSION);
}

it('finds separated clusters: points of one cluster share a cell, and no two clusters do', () => {
  const { sample, labels } = clustered(5, 30);
  const centroids = trainCentroids(sample, DIMENSION, 5, 10);
  expect(centroids.count).toBe(5);
  const cellOfLabel = new Map<number, number>();
  labels.forEach((label, row) => {
    const cell = nearestCell(centroids, rowOf(sample, row));
    if (!cellOfLabel.has(label)) cellOfLabel.set(label, cell);
    expect(cell).toBe(cellOfLabel.get(label));
  });
  expect(new Set(cellOfLabel.values()).size).toBe(5);
});

it('keeps centroids of unit length, the same for the same sample, and fewer when the sample is smaller', () => {
  const { sample } = clustered(3, 4);
  const a = trainCentroids(sample, DIMENSION, 6, 4);
  expect(trainCentroids(sample, DIMENSION, 6, 4).values).toEqual(a.values);
  for (let cell = 0; cell < a.count; cell += 1) {
    const length = Math.hypot(...a.values.subarray(cell * DIMENSION, (cell + 1) * DIMENSION));
    expect(length).toBeCloseTo(1, 5);
  }
  const three = trainCentroids(sample.subarray(0, 3 * DIMENSION), DIMENSION, 6, 4);
  expect(three.count).toBe(3);
});

it('leaves zero vectors out of the training and gives an all-zero sample a single cell', () => {
  const { sample } = clustered(2, 10);
  const withZeros = new Float32Array(sample.length + 5 * DIMENSION);
  withZeros.set(sample);
  expect(trainCentroids(withZeros, DIMENSION, 2, 6).values).toEqual(trainCentroids(sample, DIMENSION, 2, 6).values);
  const zeros = trainCentroids(new Float32Array(4 * DIMENSION), DIMENSION, 3, 2);
  expect(zeros.count).toBe(1);
});

it('orders the probed cells nearest first and gives as many as asked', () => {
  const { sample } = clustered(4, 20);
  const centroids = trainCentroids(sample, DIMENSION, 4, 8);
  const query = Array.from({ length: DIMENSION }, (_, d): number => (d === 2 ? 1 : d === 1 ? 0.6 : 0));
  const probes = nearestCells(centroids, query, 2);
  expect(probes).toHaveLength(2);
  expect(probes[0]).toBe(nearestCell(centroids, query));
  const all = nearestCells(centroids, query, 10);
  expect([...all].sort()).toEqual([0, 1, 2, 3]);
  const dots = all.map((cell) =>
    query.reduce((s, v, d) => s + v * (centroids.values[cell * DIMENSION + d] as number), 0),
  );
  expect(dots).toEqual([...dots].sort((x, y) => y - x));
});

it('assigns a quantized vector (b standing for b - 128) to the cell of its dequantized values', () => {
  const { sample } = clustered(3, 10);
  const centroids = trainCentroids(sample, DIMENSION, 3, 6);
  const next = random(11);
  const rows = 20;
  const bytes = Uint8Array.from({ length: rows * DIMENSION }, () => Math.floor((next() + 0.5) * 255) + 1);
  const cells = cellsOfQuantized(centroids, bytes, rows);
  for (let row = 0; row < rows; row += 1) {
    const values = Array.from(bytes.subarray(row * DIMENSION, (row + 1) * DIMENSION), (b) => b - 128);
    expect(cells[row]).toBe(nearestCell(centroids, values));
  }
});

it('sizes the cells by the square root of the rows, and fewer once a training would pass its budget of multiply-adds', () => {
  expect(cellCountFor(100, 512)).toBe(16);
  expect(cellCountFor(50_000, 512)).toBe(224);
  expect(cellCountFor(100_000, 512)).toBe(316);
  expect(cellCountFor(1_000_000, 512)).toBe(39);
  expect(cellCountFor(1_000_000, 512) * 1_000_000 * 512).toBeLessThanOrEqual(20_000_000_000);
  // A wider model gets fewer cells for the same rows: the budget counts its dot products' length.
  expect(cellCountFor(100_000, 4_096)).toBe(48);
  expect(cellCountFor(50_000_000, 512)).toBe(16);
});
