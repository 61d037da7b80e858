import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttributeMap } from '../../../core/model/attributeValue.js';
import { itemSize } from '../../../core/model/itemSize.js';
import { encodeItemSized } from '../../../core/store/itemCodec.js';

describe('the size encodeItemSized gives with the stored text', () => {
  it('equals itemSize for any strings, ASCII or not (lone surrogates, controls, escapes)', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'binary-ascii' }),
      fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }),
    );
    fc.assert(
      fc.property(text, text, fc.array(text, { minLength: 1, maxLength: 3 }), (name, value, set) => {
        const item: AttributeMap = {
          [name]: { S: value },
          nested: { M: { [value]: { L: [{ S: name }, { N: '12.5' }] } } },
          set: { SS: [...new Set(set)] },
        };
        expect(encodeItemSized(item).size).toBe(itemSize(item));
      }),
    );
  });

  it('sees a lone surrogate behind its \\u escape in otherwise ASCII text', () => {
    const item: AttributeMap = { a: { S: 'x\udc00' }, b: { SS: ['\u0001', 'y'] } };
    // a: 1 + 1 + 3 (replacement character), b: 1 + 1 + 1
    expect(encodeItemSized(item).size).toBe(8);
  });

  it('measures non-ASCII text in UTF-8 bytes', () => {
    const item: AttributeMap = { née: { S: '€\ud800' }, ok: { BOOL: true } };
    // née: 4, €: 3, lone surrogate: 3 (replacement character), ok: 2, BOOL: 1
    expect(encodeItemSized(item).size).toBe(13);
  });
});
