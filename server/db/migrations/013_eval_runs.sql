-- Evaluations (README 'Does the panel help?'): a run's settings and its questions (so a resume asks the same
-- ones), and one row per answered question and method, written as soon as it is answered.
CREATE TABLE IF NOT EXISTS eval_runs (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  detail TEXT,
  settings JSONB NOT NULL,
  task_view JSONB NOT NULL,
  items JSONB NOT NULL,
  k INTEGER,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS eval_runs_user ON eval_runs (user_id, created_at);
CREATE TABLE IF NOT EXISTS eval_results (
  run_id TEXT NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
  method TEXT NOT NULL,
  idx INTEGER NOT NULL,
  correct BOOLEAN NOT NULL,
  answer TEXT,
  tokens INTEGER NOT NULL,
  ms INTEGER NOT NULL,
  unreadable INTEGER NOT NULL,
  estimated INTEGER NOT NULL,
  first_correct BOOLEAN,
  right_to_wrong INTEGER NOT NULL,
  wrong_to_right INTEGER NOT NULL,
  PRIMARY KEY (run_id, method, idx)
);
