import { isMarkerOnly } from './listMarkers';
import type { PdfLine } from './pdfLine';

/** A marker sits at most this many font sizes left of its item's text. */
const MAX_MARKER_GAP = 4;
/** Two lines share a baseline when they are this close, in font sizes. */
const BASELINE_TOLERANCE = 0.3;

/**
 * WeasyPrint writes every list marker of a page after the page's text, so a marker is a line of
 * its own on its item's baseline. Each such marker joins the nearest line to its right on that
 * baseline written before it, which then starts with it like any item; a lone `-` or `1.` written
 * before the line beside it is a table cell, and stays one. Lines are bucketed by rounded
 * baseline, so a page costs one pass.
 */
export function attachMarkers(lines: readonly PdfLine[]): PdfLine[] {
  const markers = lines.filter((line) => line.runs !== undefined && isMarkerOnly(line.text));
  if (markers.length === 0) return [...lines];
  const byBaseline = new Map<number, PdfLine[]>();
  const order = new Map<PdfLine, number>();
  for (const line of lines) {
    order.set(line, order.size);
    const key = Math.round(line.y);
    const bucket = byBaseline.get(key);
    if (bucket) bucket.push(line);
    else byBaseline.set(key, [line]);
  }
  const merged = new Map<PdfLine, PdfLine>();
  const used = new Set<PdfLine>();
  for (const marker of markers) {
    const item = itemRightOf(marker, byBaseline, used, order);
    if (!item) continue;
    used.add(marker);
    used.add(item);
    merged.set(item, {
      ...item,
      text: `${marker.text} ${item.text}`,
      x: marker.x,
      runs: [...(marker.runs ?? []), ...(item.runs ?? [])],
    });
  }
  return lines.filter((line) => merged.has(line) || !used.has(line)).map((line) => merged.get(line) ?? line);
}

function itemRightOf(
  marker: PdfLine,
  byBaseline: Map<number, PdfLine[]>,
  used: Set<PdfLine>,
  order: Map<PdfLine, number>,
): PdfLine | null {
  const markerEnd = marker.runs?.[marker.runs.length - 1]?.endX ?? marker.x;
  const key = Math.round(marker.y);
  let best: PdfLine | null = null;
  for (const candidates of [byBaseline.get(key - 1), byBaseline.get(key), byBaseline.get(key + 1)]) {
    for (const line of candidates ?? []) {
      if ((order.get(line) ?? 0) >= (order.get(marker) ?? 0) || used.has(line) || isMarkerOnly(line.text)) continue;
      if (Math.abs(line.y - marker.y) > BASELINE_TOLERANCE * Math.max(line.size, marker.size)) continue;
      const gap = line.x - markerEnd;
      if (gap < -0.5 || gap > MAX_MARKER_GAP * marker.size) continue;
      if (!best || line.x < best.x) best = line;
    }
  }
  return best;
}
