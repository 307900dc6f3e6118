import { useQuery } from '@tanstack/react-query';
import { CONTACTS_API, fillApiPath, type GroupFields } from '@wren/contracts';
import { http } from '@/lib/http/client';

/**
 * The columns contact groups fill in a campaign's text (issue 47 item 2): {{name}}, {{phone}} and
 * each custom field some contact of the chosen groups has. Null while none is chosen. One query for
 * the chosen groups (useQueries would put react-query's internals into the cold dashboard's chunk).
 */
export function useGroupFields(groupIds: string[]): string[] | null {
  const query = useQuery({
    queryKey: ['groups', 'fields', [...groupIds].sort()] as const,
    queryFn: async (): Promise<string[]> => {
      const answers = await Promise.all(
        groupIds.map(
          async (id) =>
            (await http.get<GroupFields>(fillApiPath(CONTACTS_API.fields, { id }), { noOverlay: true })).data,
        ),
      );
      return answers.flatMap((a) => a.fields);
    },
    enabled: groupIds.length > 0,
    staleTime: 30_000,
  });
  if (groupIds.length === 0) return null;
  const fields = new Map<string, string>();
  for (const f of query.data ?? []) if (!fields.has(f.toLowerCase())) fields.set(f.toLowerCase(), f);
  return ['name', 'phone', ...[...fields.values()].sort((a, b) => a.localeCompare(b))];
}
