import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createApiClient, detectTransport } from './api/client.js';
import { ApiClientProvider } from './api/context.js';
import { connectEvents } from './api/queries.js';
import { App } from './app/App.js';
import { initI18n } from './i18n/index.js';
import './styles.css';

async function main() {
  await initI18n();
  const client = createApiClient(detectTransport());
  const queryClient = new QueryClient({
    defaultOptions: {
      // Change events from the core invalidate what changed; no polling needed.
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: true },
    },
  });
  connectEvents(client, queryClient);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ApiClientProvider client={client}>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </ApiClientProvider>
    </StrictMode>,
  );
}

void main();
