import { create } from 'zustand';
import { parseHash, routeHash, type Route } from '../app/routes';

interface RouterState {
  route: Route;
  navigate(route: Route): void;
}

export const useRouter = create<RouterState>((set) => ({
  route: parseHash(window.location.hash),
  navigate(route) {
    const hash = routeHash(route);
    if (window.location.hash !== hash) window.location.hash = hash;
    set({ route });
  },
}));

window.addEventListener('hashchange', () => {
  useRouter.setState({ route: parseHash(window.location.hash) });
});

export const navigate = (route: Route): void => useRouter.getState().navigate(route);
