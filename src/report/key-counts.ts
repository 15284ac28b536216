// How many times each key number has been counted, in two typed arrays (open addressing): a SARIF log of a million
// findings counts a million keys, which a Map of numbers held at about 50 bytes each (a heap number per key).

/** A count per key number (an integer below 2^53), starting at 0. */
export class KeyCounts {
  private keys = new Float64Array(1024);
  private counts = new Uint32Array(1024);
  private size = 0;

  /** How many times `key` was counted before, counting it once more. */
  next(key: number): number {
    if (this.size * 2 >= this.keys.length) this.grow();
    const i = this.slot(this.keys, this.counts, key);
    const before = this.counts[i]!;
    if (before === 0) {
      this.keys[i] = key;
      this.size++;
    }
    this.counts[i] = before + 1;
    return before;
  }

  /** The slot of `key` in the table: where it is, or the empty one where it goes (linear probing). */
  private slot(keys: Float64Array, counts: Uint32Array, key: number): number {
    const mask = keys.length - 1;
    let i = (key >>> 0) & mask;
    while (counts[i] !== 0 && keys[i] !== key) i = (i + 1) & mask;
    return i;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    const counts = new Uint32Array(this.keys.length * 2);
    for (let i = 0; i < this.keys.length; i++) {
      if (this.counts[i] === 0) continue;
      const j = this.slot(keys, counts, this.keys[i]!);
      keys[j] = this.keys[i]!;
      counts[j] = this.counts[i]!;
    }
    this.keys = keys;
    this.counts = counts;
  }
}
