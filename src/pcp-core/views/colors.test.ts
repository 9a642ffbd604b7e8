// Colour resolution: hex forms scaled as Qt does, rgbi: as X11 defines it, SVG and X11 names
// folded; pmchart's own acceptance is checked in colors.conformance.test.ts.
import { describe, expect, it } from 'vitest';
import { formatHexColor, isColor, isPmchartColor, resolveColor } from './colors';

describe('resolveColor', () => {
  it.each([
    ['#abc', [0xaa, 0xbb, 0xcc]],
    ['#A0b1C2', [0xa0, 0xb1, 0xc2]],
    ['#80a0b1c2', [0xa0, 0xb1, 0xc2]],
    ['#fffeeeddd', [0xff, 0xee, 0xdd]],
    ['#ffffeeeedddd', [0xff, 0xee, 0xdd]],
    ['rgbi:1.0/0.5/0', [255, 128, 0]],
    ['violet', [0xee, 0x82, 0xee]],
    ['Dark Slate Gray', [0x2f, 0x4f, 0x4f]],
    ['green', [0, 0x80, 0]],
    ['grey50', [0x7f, 0x7f, 0x7f]],
    ['NavyBlue', [0, 0, 0x80]],
  ])('%s', (spec, rgb) => expect(resolveColor(spec)).toEqual(rgb));

  it.each(['#-cycle', '#ab', '#ggg', 'rgbi:1.5/0/0', 'rgbi:0/0', 'bogus', '', 'transparent'])('%s is no RGB', (spec) => expect(resolveColor(spec)).toBeUndefined());

  it('knows transparent is a colour, and which spellings pmchart reads', () => {
    expect(isColor('transparent')).toBe(true);
    expect(isColor('bogus')).toBe(false);
    expect(isPmchartColor('rgbi:1.0/0/0')).toBe(false);
    expect(isPmchartColor('rgbi:0.99/0/0')).toBe(true);
    expect(isPmchartColor('grey50')).toBe(false);
    expect(formatHexColor([0, 128, 255])).toBe('#0080ff');
  });
});
