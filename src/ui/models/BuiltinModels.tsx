// The built-in engine's section of the Models dialog: the GGUF files on the server, downloads with their
// progress, the recommended small models, a download from any URL and a file added from the server's disk.
// It only selects from and sends to a builtinModels actor (the host creates it from builtinModelsLogic). The files
// are the server's: only its operator downloads, adds and deletes them; everyone else sees the list read-only.
import { useSelector } from '@xstate/react';
import { useId, useState, type FormEvent } from 'react';
import type { BuiltinModelsActorRef } from '../../machines/builtinModels.machine';
import * as sel from '../../machines/builtinModels.selectors';
import type { ModelDownload } from '../../schemas/builtinModels';
import { Badge } from '../common/Badge';

export const formatBytes = (n: number) =>
  n >= 1e9
    ? `${(n / 1e9).toFixed(2)} GB`
    : n >= 1e6
      ? `${(n / 1e6).toFixed(n >= 1e8 ? 0 : 1)} MB`
      : n >= 1e3
        ? `${Math.round(n / 1e3)} kB`
        : `${n} B`;

export function BuiltinModels({ actor }: { actor: BuiltinModelsActorRef }) {
  const loading = useSelector(actor, sel.selectLoading);
  const loadFailed = useSelector(actor, sel.selectLoadFailed);
  const error = useSelector(actor, sel.selectError);
  const canManage = useSelector(actor, sel.selectCanManage);

  return (
    <section className="builtin-models" aria-labelledby="builtin-models-title">
      <header className="builtin-models__header">
        <h3 id="builtin-models-title">Built-in engine</h3>
        <p className="muted">Runs GGUF models on this server’s CPU with llama.cpp — nothing else to install.</p>
      </header>
      {error && (
        <div className="form-message form-message--error builtin-models__error" role="alert">
          <span>{error}</span>
          <button type="button" className="link-button" onClick={() => actor.send({ type: 'error.dismiss' })}>
            Dismiss
          </button>
        </div>
      )}
      {loading ? (
        <p className="muted" role="status">
          Loading the model files…
        </p>
      ) : loadFailed ? (
        <button type="button" className="button button--small" onClick={() => actor.send({ type: 'models.reload' })}>
          Try again
        </button>
      ) : (
        <>
          <ModelFiles actor={actor} />
          <Downloads actor={actor} />
          {canManage ? (
            <>
              <Recommended actor={actor} />
              <DownloadFromUrl actor={actor} />
              <AddFromDisk actor={actor} />
            </>
          ) : (
            <p className="builtin-models__empty" role="note">
              Only the server’s operator downloads, adds and deletes these files. Every model listed here is yours to
              use.
            </p>
          )}
        </>
      )}
    </section>
  );
}

function ModelFiles({ actor }: { actor: BuiltinModelsActorRef }) {
  const files = useSelector(actor, sel.selectFiles);
  const dir = useSelector(actor, sel.selectDir);
  const busy = useSelector(actor, sel.selectBusy);
  const canManage = useSelector(actor, sel.selectCanManage);
  const [confirming, setConfirming] = useState<string | null>(null);
  return (
    <div className="builtin-models__block">
      <h4>Model files</h4>
      {files.length === 0 ? (
        <p className="builtin-models__empty">
          {canManage
            ? 'No model files yet. Download a recommended model below, or add a GGUF file that is already on the server.'
            : 'No model files yet. The server’s operator can download some.'}
        </p>
      ) : (
        <ul className="builtin-models__list">
          {files.map((f) => (
            <li key={f.name} className="builtin-models__row">
              <div className="builtin-models__name">
                <strong title={f.name}>{f.name}</strong>
                <span className="muted">{formatBytes(f.bytes)}</span>
                {f.loaded && (
                  <Badge tone="success" title="In memory now; unloaded after a while unused">
                    Loaded
                  </Badge>
                )}
              </div>
              {!canManage ? null : confirming === f.name ? (
                <span className="button-row">
                  <button
                    type="button"
                    className="button button--small button--danger-solid"
                    disabled={busy}
                    onClick={() => (setConfirming(null), actor.send({ type: 'file.delete', name: f.name }))}
                  >
                    Delete file
                  </button>
                  <button
                    type="button"
                    className="button button--small button--ghost"
                    onClick={() => setConfirming(null)}
                  >
                    Keep
                  </button>
                </span>
              ) : (
                <button
                  type="button"
                  className="button button--small button--danger"
                  aria-label={`Delete ${f.name}`}
                  disabled={busy}
                  onClick={() => setConfirming(f.name)}
                >
                  Delete
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {dir && (
        <p className="field__hint">
          Stored in {dir}. A .gguf file put there shows after{' '}
          <button type="button" className="link-button" onClick={() => actor.send({ type: 'models.reload' })}>
            Refresh
          </button>
          .
        </p>
      )}
    </div>
  );
}

function Downloads({ actor }: { actor: BuiltinModelsActorRef }) {
  const downloads = useSelector(actor, sel.selectDownloads);
  if (!downloads.length) return null;
  return (
    <div className="builtin-models__block">
      <h4>Downloads</h4>
      <ul className="builtin-models__list">
        {downloads.map((d) => (
          <DownloadRow key={d.file} download={d} actor={actor} />
        ))}
      </ul>
    </div>
  );
}

const STATE_WORDS: Record<ModelDownload['state'], string> = {
  running: 'Downloading',
  verifying: 'Checking',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
  interrupted: 'Interrupted',
};

function DownloadRow({ download: d, actor }: { download: ModelDownload; actor: BuiltinModelsActorRef }) {
  const busy = useSelector(actor, sel.selectBusy);
  const canManage = useSelector(actor, sel.selectCanManage);
  const percent = sel.downloadPercent(d);
  const active = d.state === 'running' || d.state === 'verifying';
  const labelId = useId();
  const amount = d.total ? `${formatBytes(d.received)} of ${formatBytes(d.total)}` : formatBytes(d.received);
  return (
    <li className="builtin-models__row builtin-models__row--download">
      <div className="builtin-models__download">
        <div className="builtin-models__name">
          <strong id={labelId} title={d.url}>
            {d.file}
          </strong>
          <Badge tone={active ? 'info' : d.state === 'failed' ? 'danger' : 'warning'}>{STATE_WORDS[d.state]}</Badge>
        </div>
        <div
          className="builtin-models__bar"
          role="progressbar"
          aria-labelledby={labelId}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent ?? undefined}
          aria-valuetext={percent === null ? amount : `${percent} % (${amount})`}
        >
          <span style={{ width: `${percent ?? (active ? 8 : 0)}%` }} />
        </div>
        <span className="muted builtin-models__amount">
          {amount}
          {percent !== null && ` · ${percent} %`}
        </span>
        {/* The one place a download's failure is said (issue 47): the buttons that start one point here. */}
        {d.error && (
          <p className="field__error" role="alert">
            {d.error}
          </p>
        )}
      </div>
      {canManage && (
        <span className="button-row">
          {!active && d.state !== 'failed' && (
            <button
              type="button"
              className="button button--small"
              disabled={busy}
              onClick={() =>
                actor.send({
                  type: 'download.start',
                  request: { url: d.url, file: d.file, ...(d.sha256 ? { sha256: d.sha256 } : {}) },
                })
              }
            >
              Resume
            </button>
          )}
          <button
            type="button"
            className="button button--small button--ghost"
            disabled={busy}
            onClick={() => actor.send({ type: 'download.cancel', file: d.file })}
          >
            {active ? 'Cancel' : 'Discard'}
          </button>
        </span>
      )}
    </li>
  );
}

function Recommended({ actor }: { actor: BuiltinModelsActorRef }) {
  const models = useSelector(actor, sel.selectRecommended);
  const busy = useSelector(actor, sel.selectBusy);
  return (
    <div className="builtin-models__block">
      <h4>Recommended small models</h4>
      <ul className="builtin-models__list">
        {models.map((m) => (
          <li key={m.id} className="builtin-models__row">
            <div className="builtin-models__name builtin-models__name--stacked">
              <span>
                <strong>{m.label}</strong> <span className="muted">· {formatBytes(m.bytes)}</span>
              </span>
              <span className="muted builtin-models__note">
                {m.fit && (
                  <Badge
                    tone={m.fit === 'fits' ? 'success' : m.fit === 'may_be_slow' ? 'warning' : 'danger'}
                    title={`Needs about ${formatBytes(m.ram_bytes)} of memory`}
                  >
                    {FIT[m.fit]}
                  </Badge>
                )}{' '}
                needs about {formatBytes(m.ram_bytes)} of memory · {m.note}{' '}
                <a className="builtin-models__licence" href={m.licence_url} target="_blank" rel="noreferrer noopener">
                  {m.licence}
                </a>
              </span>
            </div>
            {m.status === 'installed' ? (
              <Badge tone="success">Downloaded</Badge>
            ) : (
              <button
                type="button"
                className="button button--small"
                aria-label={`Download ${m.label}`}
                disabled={busy || m.status === 'downloading'}
                onClick={() =>
                  actor.send({
                    type: 'download.start',
                    request: { url: m.url, file: m.file, ...(m.sha256 ? { sha256: m.sha256 } : {}) },
                  })
                }
              >
                {m.status === 'downloading' ? 'Downloading…' : 'Download'}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

const FIT = { fits: 'Fits', may_be_slow: 'May be slow', too_big: 'Too big' } as const;

function DownloadFromUrl({ actor }: { actor: BuiltinModelsActorRef }) {
  const busy = useSelector(actor, sel.selectBusy);
  const [url, setUrl] = useState('');
  const [sha256, setSha256] = useState('');
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({
      type: 'download.start',
      request: { url: url.trim(), ...(sha256.trim() ? { sha256: sha256.trim() } : {}) },
    });
  };
  return (
    <form className="builtin-models__block" onSubmit={submit}>
      <h4>Download from a URL</h4>
      <div className="field">
        <label htmlFor={`${id}-url`}>GGUF file URL</label>
        <input
          id={`${id}-url`}
          type="url"
          required
          placeholder="https://…/model.gguf"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-sha`}>SHA-256 (optional)</label>
        <input
          id={`${id}-sha`}
          spellCheck={false}
          placeholder="64 hex digits"
          value={sha256}
          onChange={(e) => setSha256(e.target.value)}
        />
        <p className="field__hint">Checked when the download ends; a file that does not match is removed.</p>
      </div>
      <button type="submit" className="button button--primary button--small" disabled={busy || !url.trim()}>
        Download
      </button>
    </form>
  );
}

function AddFromDisk({ actor }: { actor: BuiltinModelsActorRef }) {
  const busy = useSelector(actor, sel.selectBusy);
  const dirs = useSelector(actor, sel.selectImportDirs);
  const [path, setPath] = useState('');
  const id = useId();
  return (
    <form
      className="builtin-models__block"
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'file.add', path: path.trim() });
      }}
    >
      <h4>Add a file on the server</h4>
      {dirs.length === 0 ? (
        <p className="builtin-models__empty">
          Adding files from the server’s disk is off. The operator can allow directories with BUILTIN_IMPORT_DIRS.
        </p>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-path`}>Path of a .gguf file</label>
            <input
              id={`${id}-path`}
              spellCheck={false}
              placeholder={`${dirs[0]}/model.gguf`}
              value={path}
              onChange={(e) => setPath(e.target.value)}
            />
            <p className="field__hint">Allowed in: {dirs.join(', ')}</p>
          </div>
          <button type="submit" className="button button--small" disabled={busy || !path.trim()}>
            Add file
          </button>
        </>
      )}
    </form>
  );
}
