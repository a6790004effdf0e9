import { describe, expect, it } from 'vitest';
import { csvLine } from './csv.ts';

describe('csvLine', () => {
  it('joins plain fields and ends the line with CRLF', () => {
    expect(csvLine(['a', 1, null, undefined, 'b'])).toBe('a,1,,,b\r\n');
  });

  it('quotes fields with commas, quotes or line breaks', () => {
    expect(csvLine(['x,y', 'say "hi"', 'two\nlines'])).toBe('"x,y","say ""hi""","two\nlines"\r\n');
  });

  it('defuses text a spreadsheet would run as a formula', () => {
    expect(csvLine(['=HYPERLINK("http://x")', '+1', '-2', '@a', 'plain'])).toBe(`"'=HYPERLINK(""http://x"")",'+1,'-2,'@a,plain\r\n`);
    expect(csvLine([-2])).toBe('-2\r\n');
  });
});
