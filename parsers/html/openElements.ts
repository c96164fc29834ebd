import type { HtmlElement } from './htmlTree';

export interface OpenElement {
  name: string;
  /** Undefined beyond the depth limit: the tags are left out, the content kept. */
  element: HtmlElement | undefined;
}

/**
 * The parser's stack of open elements, with a count per name so that the usual question — is
 * there any open <p> (<li>, <a>…) to end? — is answered without a scan, and every scan stops
 * after maxDepth elements: stray end tags inside deep nesting cost a bounded number of steps.
 */
export class OpenElements {
  private readonly stack: OpenElement[] = [];
  private readonly counts = new Map<string, number>();

  constructor(private readonly maxDepth: number) {}

  get length(): number {
    return this.stack.length;
  }

  readonly isOpen = (name: string): boolean => (this.counts.get(name) ?? 0) > 0;

  push(open: OpenElement): void {
    this.stack.push(open);
    this.counts.set(open.name, (this.counts.get(open.name) ?? 0) + 1);
  }

  pop(): OpenElement | undefined {
    const open = this.stack.pop();
    if (open) this.counts.set(open.name, this.counts.get(open.name)! - 1);
    return open;
  }

  /**
   * Index of the innermost open element matching, looking down no further than a boundary
   * element (nor further than maxDepth elements); -1 if none.
   */
  find(names: ReadonlySet<string> | string, boundaries: ReadonlySet<string>, currentOnly: boolean): number {
    const matches = typeof names === 'string' ? (name: string) => name === names : (name: string) => names.has(name);
    if (typeof names === 'string' ? !this.isOpen(names) : !this.anyOpen(names)) return -1;
    const stop = Math.max(0, this.stack.length - (currentOnly ? 1 : this.maxDepth));
    for (let i = this.stack.length - 1; i >= stop; i--) {
      const name = this.stack[i]!.name;
      if (matches(name)) return i;
      if (boundaries.has(name)) return -1;
    }
    return -1;
  }

  private anyOpen(names: ReadonlySet<string>): boolean {
    for (const name of names) if (this.isOpen(name)) return true;
    return false;
  }
}
