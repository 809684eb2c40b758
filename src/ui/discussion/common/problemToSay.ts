// Which start check a start form says under Start. A problem with what the person writes (an empty context or topic)
// waits until they have touched the field or tried to start: before that the empty box and its placeholder say
// enough, and an orange sentence about a box nobody has typed in yet reads as a scolding (issue 47).
import { DISCUSSION_MESSAGES } from '../../../schemas/messages';

const ABOUT_THE_FIELD: ReadonlySet<string> = new Set([
  DISCUSSION_MESSAGES.provideContext,
  DISCUSSION_MESSAGES.hybridProvideTopic,
]);

export const problemToSay = (problem: string | null, touched: boolean): string | null =>
  problem !== null && (touched || !ABOUT_THE_FIELD.has(problem)) ? problem : null;
