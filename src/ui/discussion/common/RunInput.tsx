// What the person sends into a run, in both panels: the format's own controls while it is live (give the floor,
// judge), and the message box when they have a part in it.
import { useSelector } from '@xstate/react';
import type { HybridDiscussionActorRef, StandardDiscussionActorRef } from '../../../machines/discussionPanel.machine';
import type { FormatAgent } from '../../../model/formats';
import * as sel from '../../../machines/discussionPanel.selectors';
import { FormatControls } from './FormatControls';
import { HumanMessageBox } from './HumanMessageBox';

export function RunInput({
  discussion,
  agents,
  live,
  showHuman,
  canSendHuman,
}: {
  discussion: StandardDiscussionActorRef | HybridDiscussionActorRef;
  /** Who takes part (the controls' choices, the @names). */
  agents: FormatAgent[];
  live: boolean;
  showHuman: boolean;
  canSendHuman: boolean;
}) {
  const runFormat = useSelector(discussion, sel.selectRunFormat);
  const floorQueue = useSelector(discussion, (s) => s.context.feed.floorQueue);
  return (
    <>
      {live && (
        <FormatControls
          format={runFormat}
          agents={agents}
          queued={floorQueue}
          onSend={(frame) => discussion.send({ type: 'panel.format.send', frame })}
        />
      )}
      {showHuman && (
        <HumanMessageBox
          enabled={canSendHuman}
          names={agents.map((a) => a.name)}
          onSend={(text) => discussion.send({ type: 'panel.human.send', text })}
        />
      )}
    </>
  );
}
