import { describe, expect, it } from 'vitest';
import type { TAssistantStreamEvent } from '@tessera/contracts';
import { createSseParser } from './sse';

describe('createSseParser', () => {
  it('parses events split across any pieces, skipping comments and unknown events', () => {
    const got: TAssistantStreamEvent[] = [];
    const parser = createSseParser((e) => got.push(e));
    const stream =
      ': hi\n\nevent: delta\ndata: {"text":"Com"}\n\nevent: delta\r\ndata: {"text":"pressor"}\r\n\r\nevent: nope\ndata: {}\n\nevent: done\ndata: {"message_id":3,"tokens":9}\n\n';
    for (let i = 0; i < stream.length; i += 7) parser.push(stream.slice(i, i + 7));
    expect(got).toEqual([
      { event: 'delta', data: { text: 'Com' } },
      { event: 'delta', data: { text: 'pressor' } },
      { event: 'done', data: { message_id: 3, tokens: 9 } },
    ]);
  });

  it('waits for the blank line that ends an event', () => {
    const got: TAssistantStreamEvent[] = [];
    const parser = createSseParser((e) => got.push(e));
    parser.push('event: error\ndata: {"code":"X","message":"m"}\n');
    expect(got).toEqual([]);
    parser.push('\n');
    expect(got).toEqual([{ event: 'error', data: { code: 'X', message: 'm' } }]);
  });
});
