/**
 * A list of section or page ids that grows as needed and is emptied for the next query, its memory kept:
 * a common prefix reaches tens of thousands of sections, and a list made anew for each query word would
 * be garbage as large each time.
 */
export class IdList {
  private ids = new Uint32Array(1024);
  private length = 0;

  clear(): void {
    this.length = 0;
  }

  push(id: number): void {
    if (this.length === this.ids.length) {
      const larger = new Uint32Array(this.ids.length * 2);
      larger.set(this.ids);
      this.ids = larger;
    }
    this.ids[this.length++] = id;
  }

  /** The ids so far, valid until the list is next cleared or grows. */
  view(): Uint32Array {
    return this.ids.subarray(0, this.length);
  }
}
