/**
 * Turns the `?` placeholders the service writes into PostgreSQL's `$1..$n`. A `?` inside a string literal ('...',
 * E'...' with backslash escapes, $tag$...$tag$), a quoted identifier ("...") or a comment is text, not a placeholder.
 */
export function numberPlaceholders(sql: string): { text: string; count: number } {
  let out = '';
  let count = 0;
  let from = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === '?') {
      out += sql.slice(from, i) + `$${++count}`;
      from = ++i;
    } else if (c === "'") {
      i = endOfQuoted(sql, i, "'", isEscapeString(sql, i));
    } else if (c === '"') {
      i = endOfQuoted(sql, i, '"', false);
    } else if (c === '-' && sql[i + 1] === '-') {
      const eol = sql.indexOf('\n', i);
      i = eol < 0 ? sql.length : eol + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      i = endOfBlockComment(sql, i);
    } else if (c === '$' && !isIdentChar(sql[i - 1])) {
      i = endOfDollarQuoted(sql, i);
    } else {
      i++;
    }
  }
  return { text: out + sql.slice(from), count };
}

/** Index just past the literal opened at `start` ('' or "" inside it is the quote itself). */
function endOfQuoted(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (backslashEscapes && c === '\\') i += 2;
    else if (c === quote && sql[i + 1] === quote) i += 2;
    else if (c === quote) return i + 1;
    else i++;
  }
  return sql.length;
}

/** E'...' (not a column named ...e followed by a string, which PostgreSQL would reject anyway). */
function isEscapeString(sql: string, quoteAt: number): boolean {
  const prev = sql[quoteAt - 1];
  return (prev === 'E' || prev === 'e') && !isIdentChar(sql[quoteAt - 2]);
}

/** PostgreSQL's block comments nest. */
function endOfBlockComment(sql: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < sql.length) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth++;
      i += 2;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else {
      i++;
    }
  }
  return sql.length;
}

/** $$...$$ or $tag$...$tag$; a `$` that opens no such string (e.g. `$1`) is one character. */
function endOfDollarQuoted(sql: string, start: number): number {
  const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(start, start + 64))?.[0];
  if (!tag) return start + 1;
  const close = sql.indexOf(tag, start + tag.length);
  return close < 0 ? sql.length : close + tag.length;
}

function isIdentChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_$]/.test(c);
}
