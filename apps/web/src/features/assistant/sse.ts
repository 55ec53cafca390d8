/**
 * A Server-Sent Events parser for the assistant's answer stream (the WHATWG "event stream" format: `event:` and
 * `data:` lines, a blank line ends an event, `:` lines are comments). Fed text as it arrives, in any pieces.
 */
import { type TAssistantStreamEvent, ZAssistantStreamEvent } from '@tessera/contracts';

/** A parser: `push` text as it arrives; each complete, valid event goes to `onEvent` (others are skipped). */
export function createSseParser(onEvent: (event: TAssistantStreamEvent) => void): { push(text: string): void } {
  let buffer = '';
  let event = 'message';
  let data: string[] = [];
  const dispatch = () => {
    if (data.length > 0) {
      try {
        const parsed = ZAssistantStreamEvent.safeParse({ event, data: JSON.parse(data.join('\n')) });
        if (parsed.success) onEvent(parsed.data);
      } catch {
        // Not JSON: not one of the assistant's events.
      }
    }
    event = 'message';
    data = [];
  };
  return {
    push(text) {
      buffer += text;
      let end = buffer.search(/\r?\n/);
      while (end >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(buffer[end] === '\r' ? end + 2 : end + 1);
        if (line === '') dispatch();
        else if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        end = buffer.search(/\r?\n/);
      }
    },
  };
}
