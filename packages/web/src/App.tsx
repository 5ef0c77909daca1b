import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { BrowserRouter } from "react-router-dom";
import { createQueryClient } from "./api/queryClient";
import { AuthModalProvider } from "./auth/AuthModalProvider";
import { ScrollToTop } from "./components/ScrollToTop";
import { AppRoutes } from "./routes/AppRoutes";
import { credentialStore } from "./session/credentialStore";
import { SessionCheck } from "./session/SessionCheck";
import { AppToaster } from "./toast/AppToaster";

export function App() {
  const [queryClient] = useState(createQueryClient);

  // However the session ends (Sign Out, a 401, another tab), no reply of that user stays cached.
  useEffect(
    () =>
      credentialStore.subscribe(() => {
        if (!credentialStore.getSession()) queryClient.clear();
      }),
    [queryClient],
  );

  return (
    <QueryClientProvider client={queryClient}>
      <SessionCheck />
      <BrowserRouter>
        <AuthModalProvider>
          <ScrollToTop />
          <AppRoutes />
        </AuthModalProvider>
      </BrowserRouter>
      <AppToaster />
    </QueryClientProvider>
  );
}
