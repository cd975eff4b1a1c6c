import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCsv, neutraliseCsvText, plainNumberText } from '../../src/report/csv.js';
import { formatUsd } from '../../src/report/money.js';
import { formatFields, formatGroupedTable, formatTable, widestLine } from '../../src/report/table.js';
import { displayWidth, printableCell, printableText, shortenPaths, truncateMiddle } from '../../src/report/text.js';

describe('one money format', () => {
  it('at least four decimals and three significant digits, rounded half up from exact picodollars', () => {
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(28_000_000_000)).toBe('$0.0280');
    expect(formatUsd(6_137_912_345_678n)).toBe('$6.1379');
    expect(formatUsd(32_550_000_000)).toBe('$0.0326');
    expect(formatUsd(1_234_500_000)).toBe('$0.00123');
    expect(formatUsd(1_235_000_000)).toBe('$0.00124');
    expect(formatUsd(12_345)).toBe('$0.0000000123');
    expect(formatUsd(1)).toBe('$0.000000000001');
    expect(formatUsd(-28_000_000_000)).toBe('-$0.0280');
    expect(formatUsd(9_007_000_000_000_000n)).toBe('$9007.0000');
  });

  it('an amount that is not zero never shows as zero', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 16n }), (pico) => {
        expect(formatUsd(pico)).not.toMatch(/^\$0\.0+$/);
        const shown = Number(formatUsd(pico).slice(1));
        // three significant digits: within 0.5% of the exact amount
        expect(Math.abs(shown - Number(pico) / 1e12) / (Number(pico) / 1e12)).toBeLessThan(0.005);
      }),
      { seed: 8, numRuns: 500 },
    );
  });

  it('a table amount (a safe-integer number, the fast path) reads as the same amount given as a bigint', () => {
    // Every digit count and sign, and the rounding edges: 10^k − 1, 10^k, 5·10^k (half up) and their neighbours.
    const edges = fc.integer({ min: 0, max: 15 }).chain((k) => fc.constantFrom(10 ** k - 1, 10 ** k, 5 * 10 ** k - 1, 5 * 10 ** k, 5 * 10 ** k + 1).map((n) => Math.max(1, n)));
    const amount = fc.oneof(fc.integer({ min: 1, max: 2 ** 31 }), fc.maxSafeNat().filter((n) => n > 0), edges);
    fc.assert(
      fc.property(amount, fc.boolean(), (pico, negative) => {
        const signed = negative ? -pico : pico;
        expect(formatUsd(signed)).toBe(formatUsd(BigInt(signed)));
      }),
      { seed: 53, numRuns: 3000 },
    );
  });
});

describe('text from input on a terminal', () => {
  it('control characters and ANSI escapes are shown escaped, never raw', () => {
    expect(printableCell('\u001b[31mred\u001b[0m')).toBe('\\x1b[31mred\\x1b[0m');
    expect(printableCell('a\nb\tc\rd\u0000\u009b')).toBe('a\\nb\\tc\\rd\\x00\\x9b');
    expect(printableText('line 1\nline \u001b[2J2')).toBe('line 1\nline \\x1b[2J2');
  });

  it('measures wide characters as two columns and cuts in the middle', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本')).toBe(4);
    expect(truncateMiddle('deepseek_chat_dev/sqlfluff__sqlfluff-1517.traj.json.gz', 20)).toBe('deepseek_…aj.json.gz');
    expect(displayWidth(truncateMiddle('deepseek_chat_dev/sqlfluff__sqlfluff-1517.traj.json.gz', 20))).toBe(20);
    expect(displayWidth(truncateMiddle('日本語のファイル名です.json', 9))).toBeLessThanOrEqual(9);
  });

  it('paths are shortened to the part that differs', () => {
    expect(shortenPaths(['../shared/traces/mini/a/x.traj.json.gz', '../shared/traces/mini/b/y.traj.json.gz'])).toEqual({ prefix: '../shared/traces/mini/', suffix: '.traj.json.gz', short: ['a/x', 'b/y'] });
    expect(shortenPaths(['scenarios/a.jsonl'])).toEqual({ prefix: 'scenarios/', suffix: '.jsonl', short: ['a'] });
    expect(shortenPaths(['a.jsonl', 'dir/b.jsonl', 'c.jsonl#2'])).toEqual({ prefix: '', suffix: '.jsonl', short: ['a', 'dir/b', 'c#2'], runs: 'some' });
    expect(shortenPaths(['x/a.json.gz', 'x/b.jsonl.gz'])).toEqual({ prefix: 'x/', suffix: '.gz', short: ['a.json', 'b.jsonl'] });
  });
});

describe('table layout', () => {
  const columns = [{ header: 'source', shrink: true }, { header: 'cost', align: 'right' as const }];

  it('a header, a rule, one line per row: no borders, no lines between rows', () => {
    const text = formatTable(columns, [['a', '$1.0000'], ['bb', '$0.0280']]);
    expect(text).toBe('source     cost\n──────  ───────\na       $1.0000\nbb      $0.0280\n');
  });

  it('a header with \\n stays on one line where the table fits; else it breaks there, aligned to the bottom; a grouped table keeps the whole header block', () => {
    const columns = [{ header: 'aa\nbb' }, { header: 'cc', align: 'right' as const }];
    expect(formatTable(columns, [['x', '1']])).toBe('aa bb  cc\n─────  ──\nx       1\n');
    expect(formatTable(columns, [['x', '1']], { maxWidth: 8 })).toBe('aa\nbb  cc\n──  ──\nx    1\n');
    const grouped = formatGroupedTable(columns, [{ heading: 'group', rows: [['x', '1']] }], { maxWidth: 8 });
    expect(grouped).toBe('aa\nbb   cc\n───  ──\ngroup\n  x   1\n');
  });

  it('fits the width by cutting shrinkable columns; input escapes stay escaped', () => {
    const long = `runs/${'x'.repeat(200)}\u001b[2J.jsonl`;
    const text = formatTable(columns, [[long, '$1.0000']], { maxWidth: 60 });
    expect(widestLine(text)).toBeLessThanOrEqual(60);
    expect(text).not.toContain('\u001b');
    expect(text).toContain('…');
  });

  it('a grouped table: each heading whole on its own line (wrapped, escaped, never cut), rows indented under it, columns aligned across groups', () => {
    const heading = `a scenario whose name is long ${'word '.repeat(12)}\u001b[2J`;
    const text = formatGroupedTable(
      [{ header: 'expectation' }, { header: 'limit', align: 'right' }],
      [
        { heading: 'short', rows: [['runs.steps', '≤ 12'], ['runs.costUsd', '≤ $0.0100']] },
        { heading, rows: [['population.completionRate', '≥ 55%']] },
      ],
      { maxWidth: 40 },
    );
    const lines = text.split('\n');
    expect(lines.slice(0, 5)).toEqual(['expectation                      limit', '───────────────────────────  ─────────', 'short', '  runs.steps                      ≤ 12', '  runs.costUsd               ≤ $0.0100']);
    expect(text).not.toContain('…');
    expect(text).not.toContain('\u001b');
    expect(lines.slice(5, -2).join(' ')).toBe(`${heading.slice(0, -4)}\\x1b[2J`);
    expect(lines.at(-2)).toBe('  population.completionRate      ≥ 55%');
    expect(widestLine(text)).toBeLessThanOrEqual(40);
  });

  it('label / value fields are aligned and escaped', () => {
    expect(formatFields([['runs', 3], ['total cost', '$1.0000'], ['model', 'x\u001b']])).toBe('runs        3\ntotal cost  $1.0000\nmodel       x\\x1b\n');
  });
});

describe('CSV', () => {
  it('neutralises text cells a spreadsheet would run as a formula (OWASP), and leaves numbers alone', () => {
    for (const bad of ['=HYPERLINK("x")', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx']) expect(neutraliseCsvText(bad)).toBe(`'${bad}`);
    expect(neutraliseCsvText('deepseek-chat')).toBe('deepseek-chat');
    const csv = formatCsv([{ task: '=1+1', status: '@x', costUsd: -0.5, steps: 3 }], ['task', 'status', 'costUsd', 'steps']);
    expect(csv).toBe("task,status,costUsd,steps\n'=1+1,'@x,-0.5,3\n");
  });
});

describe('CSV is written as csv-stringify writes it', () => {
  it('on random rows of every kind of value (after neutralising text as OWASP recommends)', async () => {
    const { stringify } = await import('csv-stringify/sync');
    // (a carriage return is left out: RFC 4180 quotes a field that holds one, csv-stringify does not unless it also holds a comma, quote or LF)
    const value = fc.oneof(fc.string({ unit: 'binary' }).map((text) => text.replace(/\r/g, '')), fc.constantFrom('a,b', 'say "hi"', 'l\nm', '=1', '-x', ''), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }));
    const columns = ['a', 'b', 'c', 'd'];
    fc.assert(
      fc.property(fc.array(fc.record({ a: value, b: value, c: value, d: value }), { maxLength: 5 }), (rows) => {
        const expected = stringify(rows, { header: true, columns, cast: { string: (text: string) => neutraliseCsvText(text), number: (n: number) => plainNumberText(n) } });
        expect(formatCsv(rows, columns)).toBe(expected || 'a,b,c,d\n');
      }),
      { seed: 21, numRuns: 400 },
    );
    expect(formatCsv([{ a: 'c\rd' }], ['a'])).toBe('a\n"c\rd"\n');
  });
});
