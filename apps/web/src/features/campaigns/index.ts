/** The campaigns feature's public api: what other features may use (eslint blocks deeper imports). */
export * from './api/campaigns';
export { hasOpenMessages, OPEN_CAMPAIGN_REFRESH_MS, useBulkSmsPushes, useCampaignLive } from './api/live';
export { CampaignActions } from './components/campaign-actions';
export { CampaignProgress, CampaignStatusBadge } from './components/campaign-status';
export { RecipientsUpload } from './components/recipients-upload';
export { ScheduledCampaigns } from './components/scheduled-campaigns';
export { useSendWindowChoice, type SendWindowChoice } from './api/use-send-window-choice';
export { CampaignSendWindowFields } from './components/send-window-fields';
export { SendWindowPlan } from './components/send-window-plan';
