import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function CampaignDetailPage() {
  return <ScreenPlaceholder description="The recipients and delivery status of one campaign." />;
}
