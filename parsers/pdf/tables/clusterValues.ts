/**
 * Groups numbers that lie within `tolerance` of their neighbour (chained, after sorting) and
 * returns each group's mean, ascending: the rule positions of one table edge drawn twice, or
 * a cell's own border next to its neighbour's, are one boundary.
 */
export function clusterValues(values: readonly number[], tolerance: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const means: number[] = [];
  let sum = 0;
  let count = 0;
  let last = Number.NEGATIVE_INFINITY;
  for (const value of sorted) {
    if (count > 0 && value - last > tolerance) {
      means.push(sum / count);
      sum = 0;
      count = 0;
    }
    sum += value;
    count++;
    last = value;
  }
  if (count > 0) means.push(sum / count);
  return means;
}

/** Index of the cluster mean nearest `value` if within `tolerance`, else -1. */
export function nearestCluster(means: readonly number[], value: number, tolerance: number): number {
  let best = -1;
  for (let i = 0; i < means.length; i++)
    if (
      Math.abs(means[i]! - value) <= tolerance &&
      (best < 0 || Math.abs(means[i]! - value) < Math.abs(means[best]! - value))
    )
      best = i;
  return best;
}
