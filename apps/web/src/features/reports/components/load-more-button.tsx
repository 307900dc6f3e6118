import { Button, Center } from '@mantine/core';
import { useT } from '@/lib/i18n';

/** The keyset-paged query a list loads its next page from. */
export interface NextPageQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** "Load more" under a keyset-paged list, while there is a next page. */
export function LoadMoreButton({ query }: { query: NextPageQuery }) {
  const t = useT();
  if (!query.hasNextPage) return null;
  return (
    <Center p="md">
      <Button variant="light" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
        {t('Load more')}
      </Button>
    </Center>
  );
}
