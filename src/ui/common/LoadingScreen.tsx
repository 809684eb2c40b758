export function LoadingScreen({ text = 'Verifying your session…' }: { text?: string }) {
  return (
    <main className="loading-screen" aria-busy="true">
      <div className="spinner" aria-hidden="true" />
      <p role="status">{text}</p>
    </main>
  );
}
