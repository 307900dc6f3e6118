import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fillApiPath, TEMPLATES_API, type TemplateDto, type UpdateTemplateInput } from '@wren/contracts';
import { http } from '@/lib/http/client';

export async function updateTemplate({
  id,
  ...input
}: UpdateTemplateInput & { id: string }): Promise<TemplateDto> {
  const { data } = await http.patch<TemplateDto>(fillApiPath(TEMPLATES_API.item, { id }), input);
  return data;
}

export function useUpdateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['templates'] }),
  });
}
