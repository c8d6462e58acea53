// dashboard: the entry point. The session, the routes, and the layout around them; /share/:token is public.
import { render } from 'preact';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { Layout } from './components/Layout.js';
import { BulkPage } from './pages/Bulk.js';
import { CompaniesPage } from './pages/Companies.js';
import { HistoryPage } from './pages/History.js';
import { KeysPage } from './pages/Keys.js';
import { NotFound } from './pages/NotFound.js';
import { SearchDetailPage } from './pages/SearchDetail.js';
import { SearchPage } from './pages/Search.js';
import { SharePage } from './pages/Share.js';
import { SignIn } from './pages/SignIn.js';
import { WatchlistPage } from './pages/Watchlist.js';
import { WatchedCompanyPage } from './pages/WatchedCompany.js';
import { SessionProvider, useSession } from './session.js';
import './styles.css';

function Routes() {
  const { apiKey } = useSession();
  const { path } = useLocation();
  if (!apiKey && !path.startsWith('/share/')) return <SignIn />;
  return (
    <Layout>
      <Router>
        <Route path="/" component={SearchPage} />
        <Route path="/searches/:id" component={SearchDetailPage} />
        <Route path="/history" component={HistoryPage} />
        <Route path="/companies" component={CompaniesPage} />
        <Route path="/watchlist" component={WatchlistPage} />
        <Route path="/watchlist/:domain" component={WatchedCompanyPage} />
        <Route path="/bulk" component={BulkPage} />
        <Route path="/keys" component={KeysPage} />
        <Route path="/share/:token" component={SharePage} />
        <Route default component={NotFound} />
      </Router>
    </Layout>
  );
}

render(
  <SessionProvider>
    <LocationProvider>
      <Routes />
    </LocationProvider>
  </SessionProvider>,
  document.getElementById('app')!,
);
