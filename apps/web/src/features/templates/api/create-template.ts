import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TEMPLATES_API, type SaveTemplateInput, type TemplateDto } from '@wren/contracts';
import { http } from '@/lib/http/client';

export async function createTemplate(input: SaveTemplateInput): Promise<TemplateDto> {
  const { data } = await http.post<TemplateDto>(TEMPLATES_API.list, input);
  return data;
}

export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['templates'] }),
  });
}
