/**
 * AI model registry calls (spec §7 `/frontstage-ai/v1` ai-models with revisions CRUD and download) as TanStack Query
 * hooks over the HTTP client; the upload reports its progress and can be cancelled.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AI_MODEL_FILE_FIELD,
  AI_MODEL_NOTES_FIELD,
  aiModelPaths,
  type TAiModel,
  type TAiModelInput,
  type TAiModelLink,
  type TAiModelListQuery,
  type TAiModelPage,
  type TAiModelRevision,
  type TAiModelRevisionPage,
  type TListQuery,
} from '@tessera/contracts';
import { http } from '../../lib/http';

/** Query keys of the registry. */
export const aiModelKeys = {
  all: ['ai-models'] as const,
  list: (q: TAiModelListQuery) => ['ai-models', 'list', q] as const,
  item: (id: number) => ['ai-models', 'item', id] as const,
  revisions: (id: number, q: TListQuery) => ['ai-models', 'revisions', id, q] as const,
};

/** GET ai-models: a page of the tenant's models. */
export function useAiModels(q: TAiModelListQuery) {
  return useQuery({
    queryKey: aiModelKeys.list(q),
    queryFn: () => http.get<TAiModelPage>(aiModelPaths.models, q),
    placeholderData: keepPreviousData,
  });
}

/** GET ai-models/{id} (quiet: the page says "not found" itself). */
export function useAiModel(id: number) {
  return useQuery({
    queryKey: aiModelKeys.item(id),
    queryFn: () => http.get<TAiModel>(aiModelPaths.model(id), undefined, { quiet: true }),
    retry: (failures, err) => failures < 2 && ![403, 404].includes((err as { status?: number }).status ?? 0),
  });
}

/** POST ai-models (no id) or PUT ai-models/{id}. */
export function useSaveAiModel() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: TAiModelInput }) =>
      id === undefined
        ? http.post<TAiModel>(aiModelPaths.models, body, { quiet: true })
        : http.put<TAiModel>(aiModelPaths.model(id), body, { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: aiModelKeys.all }),
  });
}

/** DELETE ai-models/{id}. */
export function useDeleteAiModel() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<void>(aiModelPaths.model(id), { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: aiModelKeys.all }),
  });
}

/** GET ai-models/{id}/revisions: a page of the model's revisions, newest first. */
export function useAiModelRevisions(id: number, q: TListQuery) {
  return useQuery({
    queryKey: aiModelKeys.revisions(id, q),
    queryFn: () => http.get<TAiModelRevisionPage>(aiModelPaths.revisions(id), q),
    placeholderData: keepPreviousData,
  });
}

/** What an upload sends: the file and its notes; `onProgress` hears the bytes sent, `signal` cancels. */
export interface TRevisionUploadInput {
  file: File;
  notes: string;
  onProgress: (sentBytes: number, totalBytes: number) => void;
  signal: AbortSignal;
}

/** POST ai-models/{id}/revisions: the notes field first (the server reads it before the file), then the file. */
export function useUploadRevision(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ file, notes, onProgress, signal }: TRevisionUploadInput) => {
      const form = new FormData();
      form.append(AI_MODEL_NOTES_FIELD, notes);
      form.append(AI_MODEL_FILE_FIELD, file, file.name);
      return http.upload<TAiModelRevision>(aiModelPaths.revisions(id), form, { quiet: true, onProgress, signal });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: aiModelKeys.all }),
  });
}

/** DELETE ai-models/{id}/revisions/{rev}. */
export function useDeleteRevision(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (rev: number) => http.del<void>(aiModelPaths.revision(id, rev), { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: aiModelKeys.all }),
  });
}

/**
 * Saves a revision's file: asks for a one-minute link and lets the browser download it to disk itself (a model of
 * hundreds of MB never passes through the page's memory; the browser can resume it).
 */
export async function saveRevisionFile(id: number, rev: number): Promise<void> {
  const link = await http.post<TAiModelLink>(aiModelPaths.link(id, rev), undefined, { quiet: true });
  const a = document.createElement('a');
  a.href = link.url;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
