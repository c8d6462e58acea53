// dashboard: a path the dashboard does not know.
export const NotFound = () => (
  <section>
    <h1>Page not found</h1>
    <p>
      There is nothing here. <a href="/">Start a search</a>.
    </p>
  </section>
);
