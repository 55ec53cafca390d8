import { describe, expect, it } from 'vitest';
import { liveUrl, parseLiveMessage, TopicListeners } from './live';

describe('liveUrl', () => {
  it('uses wss on https and ws otherwise, on the page host', () => {
    expect(liveUrl({ protocol: 'https:', host: 'console.example.com' })).toBe('wss://console.example.com/mqtt');
    expect(liveUrl({ protocol: 'http:', host: 'localhost:8080' })).toBe('ws://localhost:8080/mqtt');
  });
});

describe('parseLiveMessage', () => {
  it('reads a live message from bytes', () => {
    const payload = new TextEncoder().encode(JSON.stringify({ topic: 'live/devices/A', list: [{ key: 't', ts: 1, vs: [2] }] }));
    expect(parseLiveMessage(payload)).toEqual({ topic: 'live/devices/A', list: [{ key: 't', ts: 1, vs: [2] }] });
  });
  it('drops non-JSON and wrong shapes instead of throwing', () => {
    expect(parseLiveMessage('not json')).toBeNull();
    expect(parseLiveMessage(JSON.stringify({ topic: 'x', list: [{ key: 't' }] }))).toBeNull();
  });
});

describe('TopicListeners', () => {
  it('tells the first add and the last remove of a topic, so one subscription serves many watchers', () => {
    const reg = new TopicListeners<() => void>();
    const a = () => undefined;
    const b = () => undefined;
    expect(reg.add('t', a)).toBe(true);
    expect(reg.add('t', b)).toBe(false);
    expect(reg.of('t')).toEqual([a, b]);
    expect(reg.remove('t', a)).toBe(false);
    expect(reg.remove('t', a)).toBe(false);
    expect(reg.remove('t', b)).toBe(true);
    expect(reg.topics()).toEqual([]);
  });
});
