/**
 * Many flat objects of a few shapes (a replay's per-run results, its notes) kept as columns, so that a
 * report of a million runs holds no object per run: each field's numbers in one growable Float64Array,
 * its strings and objects interned (by value for strings, by identity for objects and non-empty arrays:
 * a pricing shared by every run is kept once), and each row's shape (its keys in order and each value's
 * kind) as one interned id. `at(i)` makes row i again, keys in the order it was added with. The store
 * names no field: whatever a result holds is kept.
 */

type Kind = 'n' | 's' | 'b' | 'u' | 'e' | 'r';

/** A field's numbers (and booleans as 0/1), and ids of its interned values; each made when first needed. */
interface Column {
  numbers?: Float64Array;
  ids?: Int32Array;
}

/** Values interned per field: strings by value, objects by identity. */
class Interned<T> {
  readonly values: T[] = [];
  private readonly ids = new Map<T, number>();

  id(value: T): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }
}

function kindOf(value: unknown): Kind {
  switch (typeof value) {
    case 'number':
      return 'n';
    case 'string':
      return 's';
    case 'boolean':
      return 'b';
    case 'undefined':
      return 'u';
    default:
      return Array.isArray(value) && value.length === 0 ? 'e' : 'r';
  }
}

export class RowColumns<T extends object> implements Iterable<T> {
  private rows = 0;
  private capacity = 256;
  private shapeIds = new Int32Array(this.capacity);
  private readonly shapes = new Interned<string>();
  private readonly shapeFields: [string, Kind][][] = [];
  private readonly columns = new Map<string, Column>();
  private readonly strings = new Map<string, Interned<string>>();
  private readonly objects = new Map<string, Interned<unknown>>();

  get length(): number {
    return this.rows;
  }

  /** Adds a row; its index. */
  add(row: T): number {
    if (this.rows === this.capacity) this.grow();
    const i = this.rows++;
    let shape = '';
    for (const [key, value] of Object.entries(row)) {
      const kind = kindOf(value);
      shape += `${kind}${key}\u0000`;
      if (kind === 'u' || kind === 'e') continue;
      const column = this.columnOf(key);
      if (kind === 'n' || kind === 'b') (column.numbers ??= new Float64Array(this.capacity))[i] = kind === 'n' ? (value as number) : value ? 1 : 0;
      else if (kind === 's') (column.ids ??= new Int32Array(this.capacity))[i] = this.internerOf(this.strings, key).id(value as string);
      else (column.ids ??= new Int32Array(this.capacity))[i] = this.internerOf(this.objects, key).id(value);
    }
    const id = this.shapes.id(shape);
    if (id === this.shapeFields.length) this.shapeFields.push(shape.split('\u0000').slice(0, -1).map((field) => [field.slice(1), field[0] as Kind]));
    this.shapeIds[i] = id;
    return i;
  }

  /** Row i as it was added (a new object; values interned are the same objects). */
  at(i: number): T {
    if (!(i >= 0 && i < this.rows)) throw new RangeError(`row ${i} of ${this.rows}`);
    const row: Record<string, unknown> = {};
    for (const [key, kind] of this.shapeFields[this.shapeIds[i]!]!) {
      const column = this.columns.get(key);
      if (kind === 'n') row[key] = column!.numbers![i];
      else if (kind === 'b') row[key] = column!.numbers![i] === 1;
      else if (kind === 's') row[key] = this.strings.get(key)!.values[column!.ids![i]!];
      else if (kind === 'r') row[key] = this.objects.get(key)!.values[column!.ids![i]!];
      else if (kind === 'e') row[key] = [];
      else row[key] = undefined;
    }
    return row as T;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.rows; i++) yield this.at(i);
  }

  private columnOf(key: string): Column {
    let column = this.columns.get(key);
    if (column === undefined) {
      column = {};
      this.columns.set(key, column);
    }
    return column;
  }

  private internerOf<V>(map: Map<string, Interned<V>>, key: string): Interned<V> {
    let interned = map.get(key);
    if (interned === undefined) {
      interned = new Interned<V>();
      map.set(key, interned);
    }
    return interned;
  }

  private grow(): void {
    this.capacity *= 2;
    const wider = <A extends Float64Array | Int32Array>(from: A, make: (n: number) => A): A => {
      const to = make(this.capacity);
      to.set(from);
      return to;
    };
    this.shapeIds = wider(this.shapeIds, (n) => new Int32Array(n));
    for (const column of this.columns.values()) {
      if (column.numbers !== undefined) column.numbers = wider(column.numbers, (n) => new Float64Array(n));
      if (column.ids !== undefined) column.ids = wider(column.ids, (n) => new Int32Array(n));
    }
  }
}

/** Rows `indices` of `columns`, then `more`, as a list a report walks once or more (`length` known). */
export function rowList<T extends object>(columns: RowColumns<T>, indices: readonly number[], more: readonly T[] = []): Iterable<T> & { readonly length: number } {
  return {
    length: indices.length + more.length,
    *[Symbol.iterator]() {
      for (const i of indices) yield columns.at(i);
      yield* more;
    },
  };
}
