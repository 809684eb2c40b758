// What "a valid order" means for a discussion's frames, checked the same way for the machine and the sockets.
// Returns the problems found (empty when the sequence is sound).

export function orderProblems(frames: any[]): string[] {
  const problems: string[] = [];
  const say = (i: number, msg: string) => problems.push(`#${i} ${frames[i]?.type}: ${msg}`);
  if (!frames.length) return ['no frames'];
  if (!['discussion_started', 'discussion_initialized'].includes(frames[0].type))
    say(0, 'the first frame must announce the discussion');
  const ends = frames.map((f, i) => (f.type === 'discussion_ended' ? i : -1)).filter((i) => i >= 0);
  if (ends.length !== 1) problems.push(`expected one discussion_ended, saw ${ends.length}`);
  else if (ends[0] !== frames.length - 1) say(ends[0] + 1, 'frame after discussion_ended');

  let busy: string | null = null;
  const phase = new Map<string, string>();
  let round = 0;
  let inRound = false;
  let lastTurn = 0;
  const argIds = new Set<string>();
  let consensus = 0;
  let summary = 0;
  frames.forEach((f, i) => {
    switch (f.type) {
      case 'agent_status': {
        const before = phase.get(f.agent_id) ?? 'idle';
        if (f.status === 'thinking') {
          if (busy && busy !== f.agent_id) say(i, `${f.agent_id} thinks while ${busy} still holds the floor`);
          busy = f.agent_id;
        } else if (f.status === 'speaking') {
          if (before !== 'thinking') say(i, `${f.agent_id} speaks without thinking first (was ${before})`);
        } else if (f.status === 'idle') {
          if (busy === f.agent_id) busy = null;
        }
        phase.set(f.agent_id, f.status);
        break;
      }
      case 'round_start':
        if (f.round !== round + 1) say(i, `round ${f.round} after round ${round}`);
        if (inRound) say(i, 'round started before the previous one ended');
        round = f.round;
        inRound = true;
        break;
      case 'round_end':
        if (!inRound || f.round !== round) say(i, `round_end ${f.round} without its round_start`);
        inRound = false;
        break;
      case 'reasoning_stage':
        if (!inRound) say(i, 'stage outside a round');
        break;
      case 'text':
        if (f.turn <= lastTurn) say(i, `turn ${f.turn} after ${lastTurn}`);
        lastTurn = f.turn;
        if (busy !== f.from_id) say(i, 'text from an agent that does not hold the floor');
        break;
      case 'agent_message':
        if (busy !== f.agent_id) say(i, 'message from an agent that does not hold the floor');
        break;
      case 'argument':
        if (f.argument.parent_id && !argIds.has(f.argument.parent_id)) say(i, `parent ${f.argument.parent_id} unknown`);
        if (busy !== f.argument.agent_id) say(i, 'argument from an agent that does not hold the floor');
        argIds.add(f.argument.id);
        break;
      case 'consensus_reached':
        consensus++;
        break;
      case 'discussion_summary':
        summary++;
        break;
    }
  });
  const cutOff = ['stopped', 'abandoned', 'failed', 'client_closed', 'shutdown'].includes(
    frames[frames.length - 1]?.reason,
  );
  if (inRound && !cutOff) problems.push(`round ${round} never ended`);
  if (consensus > 1) problems.push(`${consensus} consensus_reached frames`);
  if (summary > 1) problems.push(`${summary} discussion_summary frames`);
  return problems;
}

/**
 * What "a sound stream" means: every agent_message_delta follows the agent_message_start of its id, a start is
 * closed by exactly one final frame (`text`, `agent_message`, `argument` or `discussion_summary`) with the same id, and that frame's text equals the
 * concatenated deltas (apart from the structured mode, whose final text is the formal rendering of the reply).
 * `resumed`: the frames of a socket that attached mid-stream (it is sent the start again, then the rest).
 */
export function streamProblems(frames: any[], opts: { resumed?: boolean } = {}): string[] {
  const problems: string[] = [];
  const open = new Map<string, string>();
  const closed = new Set<string>();
  const pieces = new Map<string, string[]>();
  frames.forEach((f, i) => {
    if (f.type === 'agent_message_delta') pieces.set(f.id, [...(pieces.get(f.id) ?? []), f.delta]);
    if (f.type === 'agent_message_start') {
      // After a reconnect the new socket is sent the start of the message in progress again.
      if (closed.has(f.id) || (open.has(f.id) && !opts.resumed)) problems.push(`#${i} start of ${f.id} twice`);
      open.set(f.id, '');
    } else if (f.type === 'agent_message_delta') {
      if (!open.has(f.id)) problems.push(`#${i} delta for ${f.id} outside its stream`);
      else open.set(f.id, open.get(f.id) + f.delta);
    } else if (finalId(f) && open.has(finalId(f)!)) {
      const text =
        f.type === 'text'
          ? f.text
          : f.type === 'argument'
            ? f.argument.content
            : f.type === 'discussion_summary'
              ? f.summary.text
              : f.content;
      // Across a reconnect some deltas were never seen (sent while no socket watched): the ones seen are pieces of
      // the final text, in order.
      const same = opts.resumed ? inOrder(text, pieces.get(finalId(f)!) ?? []) : text === open.get(finalId(f)!);
      if (f.message_type !== 'structured' && !same)
        problems.push(`#${i} final text of ${finalId(f)} differs from its deltas`);
      open.delete(finalId(f)!);
      closed.add(finalId(f)!);
    }
  });
  for (const id of open.keys()) problems.push(`stream ${id} never closed`);
  return problems;
}

/** The id a final frame closes a stream with: a turn's message, an argument, the summary. */
function finalId(f: any): string | null {
  if (f.type === 'text' || f.type === 'agent_message' || f.type === 'discussion_summary') return f.id ?? null;
  if (f.type === 'argument') return f.argument.id;
  return null;
}

/**
 * Every turn and the summary stream: each argument, agent_message and text (but an interrupted one, which closes a
 * stream by definition) and each discussion_summary with an id was announced by an agent_message_start of its id.
 */
export function unstreamedFinals(frames: any[]): string[] {
  const started = new Set(frames.filter((f) => f.type === 'agent_message_start').map((f) => f.id));
  return frames
    .filter((f) => ['text', 'agent_message', 'argument', 'discussion_summary'].includes(f.type))
    .filter((f) => !started.has(finalId(f)))
    .map((f) => `${f.type} ${finalId(f) ?? '(no id)'} was not streamed`);
}

function inOrder(text: string, parts: string[]): boolean {
  let at = 0;
  for (const p of parts) {
    const i = text.indexOf(p, at);
    if (i < 0) return false;
    at = i + p.length;
  }
  return true;
}
