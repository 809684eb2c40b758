// The reference-audio upload form's rules on their own, without the chart.
import { describe, expect, it } from 'vitest';
import { emptyUpload, isUploadIncomplete, uploadOutcome, uploadRequest } from '../../src/model/audioUpload';

const file = new Blob(['x']);
const stored = { id: 'au3', name: 'Calm', audio_url: '/media/au3.wav', is_default: false };

describe('reference-audio upload form', () => {
  it('needs a name that is not blank and a file', () => {
    expect(isUploadIncomplete(emptyUpload)).toBe(true);
    expect(isUploadIncomplete({ name: '   ', file, fileName: 'a.wav' })).toBe(true);
    expect(isUploadIncomplete({ name: 'Calm', file: null, fileName: '' })).toBe(true);
    expect(isUploadIncomplete({ name: 'Calm', file, fileName: '' })).toBe(false);
  });

  it('sends the trimmed name, and "audio" for a file without a name', () => {
    expect(uploadRequest('ag1', { name: ' Calm ', file, fileName: '' })).toEqual({
      agentId: 'ag1',
      name: 'Calm',
      file,
      fileName: 'audio',
    });
  });

  it('shows the transcript auto-transcription made, or why it made none', () => {
    expect(uploadOutcome({ ...stored, transcript: 'Hello' })).toEqual({
      lastTranscript: { name: 'Calm', text: 'Hello' },
      audioNotice: null,
    });
    expect(uploadOutcome({ ...stored, transcription_error: 'no engine' })).toEqual({
      lastTranscript: null,
      audioNotice: 'no engine',
    });
  });
});
