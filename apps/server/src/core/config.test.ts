import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('gives the embedded defaults of the README', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, mqttPort: 1883, dataDir: './data', demo: true, ingestBatchMax: 5000 });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.mqttUrl).toBeUndefined();
  });

  it('turns the demo off by default with DATABASE_URL, and on or off with DEMO', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://x@h/db' }).demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x@h/db', DEMO: '1' }).demo).toBe(true);
    expect(loadConfig({ DEMO: '0' }).demo).toBe(false);
  });

  it('keeps files in a directory embedded and in the database with DATABASE_URL, unless BLOB_STORE says otherwise', () => {
    expect(loadConfig({})).toMatchObject({ blobStore: 'directory', blobDir: 'data/blobs' });
    expect(loadConfig({ DATABASE_URL: 'postgres://x@h/db' }).blobStore).toBe('database');
    expect(loadConfig({ DATABASE_URL: 'postgres://x@h/db', BLOB_STORE: 'directory', BLOB_DIR: '/srv/blobs' })).toMatchObject({
      blobStore: 'directory',
      blobDir: '/srv/blobs',
    });
    expect(loadConfig({ BLOB_STORE: 'database' }).blobStore).toBe('database');
    expect(() => loadConfig({ BLOB_STORE: 's3' })).toThrow(/BLOB_STORE/);
  });

  it('points LINE at api.line.me unless LINE_API_BASE says otherwise (no trailing slash)', () => {
    expect(loadConfig({}).lineApiBase).toBe('https://api.line.me');
    expect(loadConfig({ LINE_API_BASE: 'http://127.0.0.1:9999/' }).lineApiBase).toBe('http://127.0.0.1:9999');
    expect(() => loadConfig({ LINE_API_BASE: 'ftp://x' })).toThrow(/LINE_API_BASE/);
    expect(() => loadConfig({ SECRETS_KEY: 'short' })).toThrow(/SECRETS_KEY/);
  });

  it('bounds database waits and the stop by default, and takes other values in milliseconds', () => {
    expect(loadConfig({})).toMatchObject({ dbConnectTimeoutMs: 5_000, dbStatementTimeoutMs: 30_000, shutdownTimeoutMs: 8_000 });
    expect(loadConfig({ DB_STATEMENT_TIMEOUT_MS: '120000', SHUTDOWN_TIMEOUT_MS: '25000' })).toMatchObject({
      dbStatementTimeoutMs: 120_000,
      shutdownTimeoutMs: 25_000,
    });
    expect(() => loadConfig({ DB_CONNECT_TIMEOUT_MS: '0' })).toThrow(/DB_CONNECT_TIMEOUT_MS/);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: 'soon' })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
  });

  it('trusts no proxy unless TRUST_PROXY names addresses, CIDR ranges or proxy-addr range names', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,loopback,::1' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'loopback',
      '::1',
    ]);
    for (const bad of ['true', '*', '10.0.0.0/33', 'proxy.example.com', ' , ']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });

  it('configures the AI assistant only with both AI_BASE_URL and AI_MODEL, with daily limits by default', () => {
    expect(loadConfig({}).ai).toEqual({
      baseUrl: undefined,
      apiKey: undefined,
      model: undefined,
      dailyRequests: 500,
      dailyTokens: 2_000_000,
    });
    expect(loadConfig({ AI_BASE_URL: 'http://127.0.0.1:11434/v1/', AI_MODEL: 'llama3.2', AI_TENANT_DAILY_TOKENS: '1000' }).ai).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      model: 'llama3.2',
      dailyRequests: 500,
      dailyTokens: 1000,
    });
    expect(() => loadConfig({ AI_BASE_URL: 'https://api.openai.com/v1' })).toThrow(/AI_BASE_URL\/AI_MODEL/);
    expect(() => loadConfig({ AI_MODEL: 'gpt-4o-mini' })).toThrow(/AI_BASE_URL\/AI_MODEL/);
    expect(() => loadConfig({ AI_BASE_URL: 'ftp://x', AI_MODEL: 'm' })).toThrow(/AI_BASE_URL/);
    expect(() => loadConfig({ AI_TENANT_DAILY_REQUESTS: '-1' })).toThrow(/AI_TENANT_DAILY_REQUESTS/);
  });

  it('names the variable in one line when a value is bad', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ MQTT_URL: 'not a url' })).toThrow(/MQTT_URL/);
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
  });
});
