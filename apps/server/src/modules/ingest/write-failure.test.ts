import { describe, expect, it } from 'vitest';
import { classifyWriteFailure, sqlStateOf } from './write-failure.js';

const dbError = (code: string) => Object.assign(new Error('db'), { code });

describe('classifyWriteFailure', () => {
  it('splits on errors in the data: classes 21, 22, 23, 27', () => {
    for (const code of ['22003', '22P02', '23514', '23505', '21000', '27000'])
      expect(classifyWriteFailure(dbError(code)), code).toBe('data');
  });

  it('retries connection loss, shutdown, resources, serialization, deadlock, timeouts and errors without a SQLSTATE', () => {
    for (const code of ['08006', '08003', '57P01', '57P03', '57014', '53100', '53200', '40001', '40P01', '25006', '42P01', 'XX000']) {
      expect(classifyWriteFailure(dbError(code)), code).toBe('transient');
    }
    expect(classifyWriteFailure(new Error('Connection terminated unexpectedly'))).toBe('transient');
    expect(classifyWriteFailure(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBe('transient');
    expect(classifyWriteFailure('not an error')).toBe('transient');
  });

  it('retries a row routed to the default partition while its day partition was attached (23514 from the routing)', () => {
    const rerouted = Object.assign(new Error('new row for relation "telemetry_default" violates partition constraint'), {
      code: '23514',
      routine: 'ExecPartitionCheckEmitError',
    });
    expect(classifyWriteFailure(rerouted)).toBe('transient');
    expect(classifyWriteFailure(new Error('Failed query: insert …', { cause: rerouted }))).toBe('transient');
    expect(classifyWriteFailure(Object.assign(new Error('violates check constraint "x"'), { code: '23514' }))).toBe('data');
  });

  it('finds the SQLSTATE of a wrapped error (Drizzle puts the driver error in `cause`)', () => {
    const wrapped = new Error('Failed query: insert …', { cause: dbError('22003') });
    expect(sqlStateOf(wrapped)).toBe('22003');
    expect(classifyWriteFailure(wrapped)).toBe('data');
  });
});
