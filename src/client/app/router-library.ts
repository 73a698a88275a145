// The router's package as a step of the app's start (entry.tsx): imported before app/takeover.tsx, so that
// its code, which the app's modules share, is evaluated in a task of its own rather than with theirs.
export {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  getRouteApi,
  notFound,
  Outlet,
  redirect,
  RouterProvider,
  useRouter,
  useRouterState,
} from '@tanstack/react-router';
