import { useQuery } from '@tanstack/react-query';
import { TEMPLATES_API, type TemplateDto, type TemplateList } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Under the ['templates'] root, which the hub invalidates on SmsTemplatesUpdated. */
export const templatesQueryKey = ['templates', 'list'] as const;

export async function getTemplates(): Promise<TemplateDto[]> {
  const { data } = await http.get<TemplateList>(TEMPLATES_API.list);
  return data.items;
}

export const useTemplates = () => useQuery({ queryKey: templatesQueryKey, queryFn: getTemplates });
