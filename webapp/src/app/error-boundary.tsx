import { Component, type ReactNode } from 'react';
import { useLocation } from '../lib/router';

import { ErrorPage } from '../pages/error';

interface State {
  error: unknown;
  path: string;
}

class Boundary extends Component<{ path: string; children: ReactNode }, State> {
  state: State = { error: null, path: this.props.path };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('unknown error') };
  }

  static getDerivedStateFromProps(props: { path: string }, state: State): Partial<State> | null {
    // Navigating away from a broken screen clears the error.
    return props.path !== state.path ? { error: null, path: props.path } : null;
  }

  componentDidCatch(error: unknown): void {
    console.error('screen error', error);
  }

  render() {
    return this.state.error ? <ErrorPage error={this.state.error} /> : this.props.children;
  }
}

/** The application-error screen for routing and rendering errors (spec section 2). */
export function ErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary path={pathname}>{children}</Boundary>;
}
