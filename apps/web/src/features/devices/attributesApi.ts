/**
 * Data layer of a device's attributes (ThingsBoard's device API; docs/decisions/device-apis.md "Attributes"): list one
 * scope, set shared or server attributes, delete one. Writes are quiet: the card shows the failure in place.
 */
import { deviceAttributePaths, type TAttributeScope, type TDeviceAttributeList } from '@tessera/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http';

const quiet = { quiet: true };

/** Query key of one scope of a device's attributes. */
export const attributesKey = (tangramId: string, scope: TAttributeScope) => ['devices', 'attributes', tangramId, scope] as const;

/** GET devices/{tangramId}/attributes/{scope}. */
export function useDeviceAttributes(tangramId: string, scope: TAttributeScope) {
  return useQuery({
    queryKey: attributesKey(tangramId, scope),
    queryFn: () => http.get<TDeviceAttributeList>(deviceAttributePaths.scope(tangramId, scope)),
  });
}

/** POST devices/{tangramId}/attributes/{scope} `{ key: value }`: the scope's list as answered replaces the cached one. */
export function useSetDeviceAttribute(tangramId: string, scope: TAttributeScope) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      http.post<TDeviceAttributeList>(deviceAttributePaths.scope(tangramId, scope), values, quiet),
    onSuccess: (list) => qc.setQueryData(attributesKey(tangramId, scope), list),
  });
}

/** DELETE devices/{tangramId}/attributes/{scope}/{key}. */
export function useDeleteDeviceAttribute(tangramId: string, scope: TAttributeScope) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => http.del<void>(deviceAttributePaths.key(tangramId, scope, key), quiet),
    onSuccess: () => qc.invalidateQueries({ queryKey: attributesKey(tangramId, scope) }),
  });
}

/**
 * Reads what a vendor typed as an attribute value: JSON when it parses as a number, boolean, string or object
 * (`21.5`, `true`, `"on"`, `{"mode":"eco"}`), else the text itself as a string.
 */
export function parseTypedValue(text: string): unknown {
  const trimmed = text.trim();
  try {
    const v: unknown = JSON.parse(trimmed);
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v;
  } catch {
    // not JSON: a plain string
  }
  return text;
}
