/**
 * Numbers written as the original writes its floats. JavaScript has one number type and
 * `JSON.stringify(1.0)` is `1`; Python's `json`/`orjson` write a float as `1.0`, `0.0`, `1e-05`.
 * Fields the original holds as floats (a rollout's `reward`, the key metrics) are written with
 * {@link pythonFloatText} so files and printed blocks read the same as the original's.
 * @module
 */

/** `repr(float(n))` as JSON: shortest round-trip digits, `.0` on whole numbers, exponent from 1e16 and below 1e-4; `null` for NaN and infinities (as orjson). */
export function pythonFloatText(n: number): string {
  if (!Number.isFinite(n)) return 'null';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const [mantissa, exponentText] = n.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${fraction}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction === '' ? '0' : fraction}`;
}

/**
 * `JSON.stringify(record, null, indent)` with the numbers under the top-level keys in `floatKeys`
 * written as Python floats (all of them, when the key holds an array or object).
 */
export function stringifyWithFloats(record: object, floatKeys: ReadonlySet<string>, indent?: number): string {
  const floats: string[] = [];
  const marker = (text: string) => `\u0000float${floats.push(text) - 1}\u0000`;
  const asFloats = (v: unknown): unknown => {
    if (typeof v === 'number') return marker(pythonFloatText(v));
    if (Array.isArray(v)) return v.map(asFloats);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, asFloats(inner)]));
    return v;
  };
  const text = JSON.stringify(
    record,
    function (this: unknown, key: string, v: unknown) {
      return this === record && floatKeys.has(key) ? asFloats(v) : v;
    },
    indent,
  );
  return text.replace(/"\\u0000float(\d+)\\u0000"/g, (_, i: string) => floats[Number(i)]!);
}
