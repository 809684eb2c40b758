// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatOf, startLabel } from '../../src/model/discussionFormat';
import { registerFormatOption } from '../../src/model/formats';
import { hybridSettingsSummary } from '../../src/model/hybridSummary';
import { hybridSettings, panelFormat } from '../../src/schemas/settings';
import { FormatControls } from '../../src/ui/discussion/common/FormatControls';
import { FormatField } from '../../src/ui/discussion/common/FormatField';
import { RELAY, relayOption } from '../support/relayFormat';

// A fifth format on the client is one record registered by kind: the Format field, its controls, the Start button,
// the first frame and the hybrid settings line all read it.

const AGENTS = [
  { id: 'a1', name: 'Ada' },
  { id: 'a2', name: 'Bo' },
  { id: 'a3', name: 'Cy' },
];
const relay = { ...panelFormat.parse({}), kind: RELAY, chair: 'a2' };

beforeAll(() => registerFormatOption(relayOption));
afterEach(cleanup);

describe('a fifth format, registered from one record', () => {
  it('the Format field offers it and renders its role, line and note', async () => {
    const onChange = vi.fn();
    render(<FormatField value={relay} agents={AGENTS} turns={6} connected={false} onChange={onChange} />);
    const format = screen.getByLabelText('Format') as HTMLSelectElement;
    expect(within(format).getByRole('option', { name: 'Relay' })).toBeTruthy();
    expect(format.value).toBe('relay');
    const anchor = screen.getByLabelText('Anchor') as HTMLSelectElement;
    expect(anchor.value).toBe('a2');
    expect(within(anchor).queryByRole('option', { name: 'You' })).toBeNull();
    expect(screen.getByText('Every agent runs one leg in order, then the anchor concludes: 3 messages.')).toBeTruthy();
    expect(screen.getByText('Anchor: Bo')).toBeTruthy();
    // Its record says the canvas's hearing rule does not apply: no line on connections.
    expect(screen.queryByText(/Everyone hears everyone/)).toBeNull();
    await userEvent.selectOptions(anchor, 'a3');
    expect(onChange).toHaveBeenLastCalledWith({ ...relay, chair: 'a3' });
  });

  it('its controls, Start button, first frame and settings line come from the record', () => {
    const onSend = vi.fn();
    render(<FormatControls format={relay} agents={AGENTS} onSend={onSend} />);
    // The person has no seat in a relay: End discussion only.
    expect(screen.getByRole('button', { name: 'End discussion' })).toBeTruthy();
    expect(screen.queryByText(/Give the floor/)).toBeNull();
    expect(screen.queryByText('Your vote as judge')).toBeNull();
    expect(startLabel(RELAY)).toBe('Start relay');
    expect(formatOf(relay, ['a1', 'a2'])).toEqual({ kind: 'relay', chair: 'a2' });
    const settings = { ...hybridSettings.parse({}), format: relay };
    expect(hybridSettingsSummary(settings)).toMatch(/^Relay · legs, anchor · /);
  });
});
