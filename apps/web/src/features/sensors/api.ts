/** Configure-tab calls (spec §7 sensors, sensor bus, sensorDisplay, sync; PUT projects/{id} for status groups). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  paths,
  sensorPaths,
  type TProject,
  type TSensorBulkUpdate,
  type TSensorBus,
  type TSensorDisplay,
  type TSensorDisplayInput,
  type TSensorInput,
  type TSensorList,
  type TSensorSaveResult,
  type TStatusGroup,
  type TSyncResult,
} from '@tessera/contracts';
import { http } from '../../lib/http';
import { projectKeys } from '../projects/api';

/** Query keys of the sensors tab. */
export const sensorKeys = {
  ofProject: (projectId: number) => ['sensors', projectId] as const,
  bus: (projectId: number) => ['sensor-bus', projectId] as const,
  display: (sensorId: number | null) => ['sensor-display', sensorId] as const,
};

/** GET {id}/profile/sensors: all of the project's sensors (a project has at most a few dozen). */
export function useSensors(projectId: number) {
  return useQuery({
    queryKey: sensorKeys.ofProject(projectId),
    queryFn: () => http.get<TSensorList>(sensorPaths.list(projectId), { page: 1, limit: 200 }),
  });
}

/** PUT v2 {id}/profile/sensors: saves the edited rows at once. */
export function useSaveSensors(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TSensorBulkUpdate) => http.put<TSensorSaveResult>(sensorPaths.listV2(projectId), body),
    onSuccess: () => qc.invalidateQueries({ queryKey: sensorKeys.ofProject(projectId) }),
  });
}

/** POST {id}/profile/sensors: adds a sensor. */
export function useAddSensor(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<TSensorInput>) => http.post<TSensorSaveResult>(sensorPaths.list(projectId), body),
    onSuccess: () => qc.invalidateQueries({ queryKey: sensorKeys.ofProject(projectId) }),
  });
}

/** DELETE projects/profile/sensors/{id}. */
export function useDeleteSensor(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (sensorId: number) => http.del(sensorPaths.one(sensorId)),
    onSuccess: () => qc.invalidateQueries({ queryKey: sensorKeys.ofProject(projectId) }),
  });
}

/** GET/PUT {id}/profile/sensorBus. */
export function useSensorBus(projectId: number) {
  return useQuery({ queryKey: sensorKeys.bus(projectId), queryFn: () => http.get<TSensorBus>(sensorPaths.bus(projectId)) });
}
/** PUT {id}/profile/sensorBus. */
export function usePutSensorBus(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (bus: TSensorBus) => http.put<TSensorBus>(sensorPaths.bus(projectId), bus),
    onSuccess: (bus) => qc.setQueryData(sensorKeys.bus(projectId), bus),
  });
}

/** POST sync: publishes the configuration to every device of the project. */
export function useSync(projectId: number) {
  return useMutation({ mutationFn: () => http.post<TSyncResult>(sensorPaths.sync, { project_id: projectId }) });
}

/** PUT projects/{id} with the status definition. */
export function useSaveStatusGroups(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (status_groups: TStatusGroup[]) => http.put<TProject>(paths.project(projectId), { status_groups }),
    onSuccess: (p) => qc.setQueryData(projectKeys.detail(projectId), p),
  });
}

/** GET sensorDisplay/{sensorId}; null when the sensor has none yet (404). */
export function useSensorDisplay(sensorId: number | null) {
  return useQuery({
    queryKey: sensorKeys.display(sensorId),
    enabled: sensorId !== null,
    queryFn: async () => {
      try {
        return await http.get<TSensorDisplay>(sensorPaths.display(sensorId ?? 0));
      } catch (e) {
        if ((e as { status?: number }).status === 404) return null;
        throw e;
      }
    },
  });
}

/** Saves (POST when new, else PUT) or deletes a sensor's display settings. */
export function useSensorDisplayMutations(sensorId: number) {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: sensorKeys.display(sensorId) });
  const save = useMutation({
    mutationFn: ({ input, exists }: { input: TSensorDisplayInput; exists: boolean }) =>
      exists
        ? http.put<TSensorDisplay>(sensorPaths.display(sensorId), input)
        : http.post<TSensorDisplay>(sensorPaths.displays, { sensor_id: sensorId, ...input }),
    onSuccess: done,
  });
  const remove = useMutation({ mutationFn: () => http.del(sensorPaths.display(sensorId)), onSuccess: done });
  return { save, remove };
}
