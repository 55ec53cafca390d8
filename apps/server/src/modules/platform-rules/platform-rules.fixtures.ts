/** Graphs the platform-rule integration tests share. */
import type { TFlowGraphInput } from '@tessera/contracts';

/** telemetry temperature → condition value > 30 → true: alert + email; false: a variable. */
export function overheating(projectId: number, expression = 'value > 30'): TFlowGraphInput {
  const at = { x: 0, y: 0 };
  return {
    nodes: [
      {
        id: 'n1',
        type: 'start',
        position: at,
        data: { trigger: { kind: 'telemetry', scope: { kind: 'projects', ids: [projectId] }, keys: ['temperature'] } },
      },
      { id: 'n2', type: 'condition', position: at, data: { expression } },
      { id: 'n3', type: 'conditionResult', position: at, data: { result: true } },
      { id: 'n4', type: 'alert', position: at, data: { level: 'alert', message: '{{tangramId}} overheating at {{value}}' } },
      { id: 'n5', type: 'notification', position: at, data: { email: true, message: 'Line overheating: {{value}} °C' } },
      { id: 'n6', type: 'conditionResult', position: at, data: { result: false } },
      { id: 'n7', type: 'variable', position: at, data: { name: 'calm', var_type: 'boolean', expression: 'true' } },
    ],
    edges: [
      { id: 'e1', source: 'n1', target: 'n2' },
      { id: 'e2', source: 'n2', target: 'n3' },
      { id: 'e3', source: 'n3', target: 'n4' },
      { id: 'e4', source: 'n4', target: 'n5' },
      { id: 'e5', source: 'n2', target: 'n6' },
      { id: 'e6', source: 'n6', target: 'n7' },
    ],
  };
}
