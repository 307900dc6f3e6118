import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fillApiPath, TEMPLATES_API } from '@wren/contracts';
import { http } from '@/lib/http/client';

export async function deleteTemplate(id: string): Promise<void> {
  await http.delete(fillApiPath(TEMPLATES_API.item, { id }));
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['templates'] }),
  });
}
