/** The application shell: the one place where SimSift's features are put together. */
export function App() {
  return (
    <div className="app" data-scan-state="idle">
      <header className="app-header">
        <h1>SimSift</h1>
        <p>Find near-duplicate texts with SimHash. Your files never leave this machine.</p>
      </header>
    </div>
  );
}
