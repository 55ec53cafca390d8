/** Product calls (spec §7 `/frontstage/v1/products`, image/upload, product functions) as TanStack Query hooks over the one client. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  IMAGE_FIELD,
  paths,
  type TImageUploaded,
  type TListQuery,
  type TProduct,
  type TProductClass,
  type TProductClassInput,
  type TProductCreate,
  type TProductFunctions,
  type TProductFunctionsView,
  type TProductUpdate,
  type TSum,
} from '@tessera/contracts';
import type { z } from 'zod';
import type { ZProductCatalog, ZProductClassList, ZProductList } from '@tessera/contracts';
import { http } from '../../lib/http';

/** Query keys of the product page; `all` covers the list, the sums and the catalogue. */
export const productKeys = {
  all: ['products'] as const,
  list: (q: TListQuery) => ['products', 'list', q] as const,
  sum: ['products', 'sum'] as const,
  catalog: ['products', 'catalog'] as const,
  classes: ['product-classes'] as const,
  functions: (productId: number | null) => ['product-functions', productId] as const,
};

/** GET products: a page of the tenant's products; `enabled` false: not fetched (a picker showing projects). */
export function useProducts(query: TListQuery, enabled = true) {
  return useQuery({
    queryKey: productKeys.list(query),
    enabled,
    queryFn: () => http.get<z.infer<typeof ZProductList>>(paths.products, query),
    placeholderData: keepPreviousData,
  });
}

/** GET products/sum: how many products the tenant has. */
export function useProductsSum() {
  return useQuery({ queryKey: productKeys.sum, queryFn: () => http.get<TSum>(paths.productsSum) });
}

/** Invalidates everything that shows products or classes (lists, sum, catalog, class counts). */
function useInvalidateCatalogue() {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: productKeys.all }), qc.invalidateQueries({ queryKey: productKeys.classes })]);
}

/** POST products. */
export function useCreateProduct() {
  const invalidate = useInvalidateCatalogue();
  return useMutation({ mutationFn: (body: TProductCreate) => http.post<TProduct>(paths.products, body), onSuccess: invalidate });
}

/** PUT products/{id}. */
export function useUpdateProduct() {
  const invalidate = useInvalidateCatalogue();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: TProductUpdate }) => http.put<TProduct>(paths.product(id), body),
    onSuccess: invalidate,
  });
}

/** DELETE products/{id}; the server refuses (409 IN_USE) while a project uses it. */
export function useDeleteProduct() {
  const invalidate = useInvalidateCatalogue();
  return useMutation({ mutationFn: (id: number) => http.del<void>(paths.product(id), { quiet: true }), onSuccess: invalidate });
}

/** POST image/upload with the file in field `image` → `{ image_url }`. */
export function useUploadImage() {
  return useMutation({
    mutationFn: (file: Blob) => {
      const form = new FormData();
      form.append(IMAGE_FIELD, file);
      return http.post<TImageUploaded>(paths.imageUpload, form, { quiet: true });
    },
  });
}

/** GET products/classes: every class with its product count. */
export function useProductClasses() {
  return useQuery({ queryKey: productKeys.classes, queryFn: () => http.get<z.infer<typeof ZProductClassList>>(paths.productClasses) });
}

/** POST products/classes, or PUT products/classes/{id} when `id` is given. */
export function useSaveProductClass() {
  const invalidate = useInvalidateCatalogue();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: TProductClassInput }) =>
      id
        ? http.put<TProductClass>(paths.productClass(id), body, { quiet: true })
        : http.post<TProductClass>(paths.productClasses, body, { quiet: true }),
    onSuccess: invalidate,
  });
}

/** DELETE products/classes/{id}; the server refuses (409 IN_USE) while a product uses it. */
export function useDeleteProductClass() {
  const invalidate = useInvalidateCatalogue();
  return useMutation({ mutationFn: (id: number) => http.del<void>(paths.productClass(id), { quiet: true }), onSuccess: invalidate });
}

/** GET projects/profile/product/functions/{id}. */
export function useProductFunctions(id: number | null) {
  return useQuery({
    queryKey: productKeys.functions(id),
    queryFn: () => http.get<TProductFunctionsView>(paths.productFunctions(id ?? 0)),
    enabled: id !== null,
  });
}

/** PUT projects/profile/product/functions/{id}. */
export function useSaveProductFunctions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, functions }: { id: number; functions: TProductFunctions }) =>
      http.put<TProductFunctionsView>(paths.productFunctions(id), functions),
    onSuccess: (view) => qc.setQueryData(productKeys.functions(view.product_id), view),
  });
}

/** GET products/catalog: every product's id and name, for the project form's select. */
export function useProductCatalog() {
  return useQuery({ queryKey: productKeys.catalog, queryFn: () => http.get<z.infer<typeof ZProductCatalog>>(paths.productCatalog) });
}
