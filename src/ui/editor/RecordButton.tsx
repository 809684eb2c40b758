// The record control. Before the agent exists there is no recorder: the button asks the editor, which answers
// 'Please save the agent first before recording'. Afterwards it follows the recorder child's states.
import { useSelector } from '@xstate/react';
import type { EditorActorRef } from '../../machines/editor.machine';
import type { RecorderActorRef } from '../../machines/recorder.machine';
import { DismissibleMessage } from '../common/DismissibleMessage';

export function RecordButton({ editor, recorder }: { editor: EditorActorRef; recorder: RecorderActorRef | undefined }) {
  if (!recorder) {
    return (
      <button type="button" className="button button--small" onClick={() => editor.send({ type: 'audio.record' })}>
        ● Record
      </button>
    );
  }
  return <RecorderControls editor={editor} recorder={recorder} />;
}

function RecorderControls({ editor, recorder }: { editor: EditorActorRef; recorder: RecorderActorRef }) {
  const asking = useSelector(recorder, (s) => s.matches({ microphoneOpen: 'requestingPermission' }));
  const recording = useSelector(recorder, (s) => s.hasTag('recording'));
  const finishing = useSelector(recorder, (s) => s.matches({ microphoneOpen: { recording: 'finishing' } }));
  const saving = useSelector(recorder, (s) => s.matches('saving'));
  const seconds = useSelector(recorder, (s) => s.context.chunks);
  const error = useSelector(recorder, (s) => s.context.error);

  return (
    <div className="agora-recorder">
      {recording ? (
        <button
          type="button"
          className="button button--small agora-recording"
          onClick={() => editor.send({ type: 'audio.record.stop' })}
          disabled={finishing}
          aria-pressed="true"
        >
          ■ Stop recording ({seconds} s)
        </button>
      ) : (
        <button
          type="button"
          className="button button--small"
          onClick={() => editor.send({ type: 'audio.record' })}
          disabled={asking || saving}
        >
          {asking ? 'Waiting for the microphone…' : saving ? 'Saving recording…' : '● Record'}
        </button>
      )}
      {recording && (
        <span className="agora-recording-dot" role="status">
          Recording…
        </span>
      )}
      {error && (
        <DismissibleMessage tone="error" onDismiss={() => recorder.send({ type: 'recorder.dismiss' })}>
          {error}
        </DismissibleMessage>
      )}
    </div>
  );
}
