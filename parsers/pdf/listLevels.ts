/** Markers this close (in font sizes) stand at the same nesting level. */
const SAME_LEVEL = 0.5;

interface Level {
  /** The marker's left edge. */
  x: number;
  /** Spaces before the marker, and the marker's width with its space: where nested items start. */
  indent: number;
  width: number;
  /** The last item's number at this level (null: a bullet). */
  ordinal: number | null;
}

/**
 * Nesting of list items, read from their markers' indentation: a marker right of the open item's
 * starts a nested list, indented to the parent's text as CommonMark wants; one back at an outer
 * marker's position returns to that level.
 */
export class ListLevels {
  private levels: Level[] = [];

  /** The number of the last item at the level a marker at `x` belongs to. */
  previousOrdinal(x: number, size: number): number | null {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const level = this.levels[i]!;
      if (Math.abs(level.x - x) <= size * SAME_LEVEL) return level.ordinal;
      if (level.x < x) return null;
    }
    return null;
  }

  /** The spaces to write before an item whose marker (e.g. `-`, `12.`) starts at `x`. */
  indentOf(x: number, size: number, ordinal: number | null): string {
    const marker = ordinal === null ? '-' : `${ordinal}.`;
    const tolerance = size * SAME_LEVEL;
    while (this.levels.length > 0 && this.top()!.x > x + tolerance) this.levels.pop();
    const top = this.top();
    const indent = !top ? 0 : Math.abs(top.x - x) <= tolerance ? top.indent : top.indent + top.width;
    if (top && Math.abs(top.x - x) <= tolerance) this.levels.pop();
    this.levels.push({ x, indent, width: marker.length + 1, ordinal });
    return ' '.repeat(indent);
  }

  /** A paragraph starting at or left of the outermost marker is past the list. */
  paragraphAt(x: number, size: number): void {
    const outer = this.levels[0];
    if (outer && x <= outer.x + size * SAME_LEVEL) this.levels = [];
  }

  end(): void {
    this.levels = [];
  }

  private top(): Level | undefined {
    return this.levels[this.levels.length - 1];
  }
}
