import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/config.js';
import { alertHistoryLink } from './dispatch.js';

describe('alert mail link', () => {
  it('points at PUBLIC_URL, trailing slash dropped', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://console.example.com/tessera/' });
    expect(alertHistoryLink(config, 'ABC123')).toBe('https://console.example.com/tessera/alerts/history?device=ABC123');
  });

  it('falls back to localhost on PORT without PUBLIC_URL, and refuses a non-http PUBLIC_URL', () => {
    expect(alertHistoryLink(loadConfig({ PORT: '9090' }), 'ABC123')).toBe('http://localhost:9090/alerts/history?device=ABC123');
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://example.com' })).toThrow(ConfigError);
  });
});
