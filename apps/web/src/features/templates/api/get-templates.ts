import { useQuery } from '@tanstack/react-query';
import { useCan } from '@/lib/account-role';
import { TEMPLATES_API, type TemplateDto, type TemplateList } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Under the ['templates'] root, which the hub invalidates on SmsTemplatesUpdated. */
export const templatesQueryKey = ['templates', 'list'] as const;

export async function getTemplates(): Promise<TemplateDto[]> {
  const { data } = await http.get<TemplateList>(TEMPLATES_API.list);
  return data.items;
}

/**
 * The account's saved messages (SMS templates): the one query every screen shares (the Saved
 * Messages page, the send forms' template menu). Pushes and this feature's mutations invalidate
 * it, so a minute of staleness only saves refetches on navigation.
 */
/** Asked only of a role with templates:read (a developer sends without saved messages). */
export const useTemplates = () =>
  useQuery({
    queryKey: templatesQueryKey,
    queryFn: getTemplates,
    staleTime: 60_000,
    enabled: useCan('templates:read'),
  });
