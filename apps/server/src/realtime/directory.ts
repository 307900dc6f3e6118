import type { GroupDto, SenderIdDto, TemplateDto } from '@wren/contracts';
import type { AppContext } from '../app/context';

/**
 * What the hub needs from the directory modules (sender IDs, contact groups, templates). A missing
 * one (null) makes its list empty and its command fail with NOT_AVAILABLE. The services validate
 * their input (the same schemas as the HTTP routes) and publish the change events.
 */
export interface HubDirectory {
  senderIds: {
    list(input: { accountId: string }): Promise<{ items: SenderIdDto[] }>;
    createSenderId(input: {
      accountId: string;
      userId: string;
      value: string;
      purpose: string;
      sampleMessage: string;
    }): Promise<unknown>;
  } | null;
  groups: {
    list(input: { accountId: string }): Promise<{ items: GroupDto[] }>;
  } | null;
  templates: {
    list(input: { accountId: string }): Promise<{ items: TemplateDto[] }>;
    saveTemplate(input: { accountId: string; name: string; text: string }): Promise<unknown>;
  } | null;
}

/** The directory services of this server (typed, so a signature change fails to compile here). */
export function directoryOf(services: AppContext['services']): HubDirectory {
  return { senderIds: services.senderIds, groups: services.groups, templates: services.templates };
}
