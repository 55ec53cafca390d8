import { describe, expect, it } from 'vitest';
import { openapiPath, operationIdOf } from './document.js';

describe('openapiPath', () => {
  it('turns Fastify parameters into OpenAPI path templates', () => {
    expect(openapiPath('/frontstage/v1/projects/:id/rules/simples/:ruleId')).toBe('/frontstage/v1/projects/{id}/rules/simples/{ruleId}');
  });
});

describe('operationIdOf', () => {
  it('reads as the method and the path, parameters as "by"', () => {
    expect(operationIdOf('GET', '/frontstage/v1/devices/{tangramId}')).toBe('getFrontstageV1DevicesByTangramId');
    expect(operationIdOf('POST', '/frontstage-dc/v1/timeseries-records/{id}/cancel')).toBe('postFrontstageDcV1TimeseriesRecordsByIdCancel');
  });
  it('tells apart paths that differ only in a parameter position', () => {
    expect(operationIdOf('GET', '/a/{id}/b')).not.toBe(operationIdOf('GET', '/a/b/{id}'));
  });
});
