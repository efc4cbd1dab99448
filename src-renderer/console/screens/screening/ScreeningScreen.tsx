// Screening: a person's name parts, date of birth, country and gender against the loaded lists,
// and the result with its explanation. Subject data lives only in this component's reducer:
// never in a store, storage, the URL or the title. Leaving the screen (unmount) or Clear drops it.
import { useEffect, useMemo, useReducer, useRef } from 'react';
import { PLAN_INFO } from '../../../../src-shared/catalog';
import type { ListKind } from '../../../../src-shared/contracts/screening';
import { ApiError, errorText } from '../../api/client';
import { href, useLocation } from '../../app/router';
import { Alert } from '../../components/Alert';
import { formatNumber } from '../../components/format';
import { ScreenHeader } from '../../components/ScreenHeader';
import { useEnv } from '../../stores/env';
import { useLists } from '../../stores/lists';
import { StaleListsBanner } from '../../components/StaleListsBanner';
import { usePlan } from '../../stores/session';
import { ListsPanel } from './ListsPanel';
import { SCREEN_COST, screeningApi, type ScreeningResult } from './screening-api';
import { ScreeningResultView, type ScreenedSubject } from './ScreeningResultView';
import { SubjectForm } from './SubjectForm';
import { UpdatingListsPage } from './UpdatingListsPage';
import {
  EMPTY_DRAFT, FIELD_ORDER, fieldErrorFromService, toRequest, validate, type Draft, type DraftField, type FieldErrors,
} from './subject';
import './screening.css';
import { planIncludes } from '../../../../src-shared/policy';


type ProblemKind = 'plan' | 'credits' | 'unavailable' | 'other';

interface State {
  draft: Draft;
  errors: FieldErrors;
  busy: boolean;
  done: { result: ScreeningResult; subject: ScreenedSubject } | null;
  problem: { kind: ProblemKind; text: string } | null;
}

type Action =
  | { type: 'edit'; field: DraftField; value: string }
  | { type: 'kind'; kind: ListKind; checked: boolean }
  | { type: 'invalid'; errors: FieldErrors }
  | { type: 'start' }
  | { type: 'done'; result: ScreeningResult; subject: ScreenedSubject }
  | { type: 'failed'; errors?: FieldErrors; problem?: State['problem'] }
  | { type: 'dismiss' }
  | { type: 'clear' };

const INITIAL: State = { draft: EMPTY_DRAFT, errors: {}, busy: false, done: null, problem: null };

function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'edit':
      return { ...state, draft: { ...state.draft, [action.field]: action.value }, errors: { ...state.errors, [action.field]: undefined } };
    case 'kind': {
      const excluded = action.checked ? state.draft.excluded.filter((k) => k !== action.kind) : [...state.draft.excluded, action.kind];
      return { ...state, draft: { ...state.draft, excluded }, errors: { ...state.errors, lists: undefined } };
    }
    case 'invalid':
      return { ...state, errors: action.errors, problem: null };
    case 'start':
      return { ...state, busy: true, errors: {}, problem: null };
    case 'done':
      return { ...state, busy: false, done: { result: action.result, subject: action.subject } };
    case 'failed':
      return { ...state, busy: false, errors: action.errors ?? {}, problem: action.problem ?? null };
    case 'dismiss':
      return state.problem ? { ...state, problem: null } : state;
    case 'clear':
      return INITIAL;
  }
}

const FIELD_TESTID: Record<keyof FieldErrors, string> = {
  first_name: 'screen-first-name',
  middle_name: 'screen-middle-name',
  last_name: 'screen-last-name',
  date_of_birth: 'screen-dob',
  country: 'screen-country',
  gender: 'screen-gender',
  lists: 'screen-list-sanctions',
  client_reference_id: 'screen-reference',
};

function problemOf(e: unknown): { errors?: FieldErrors; problem?: State['problem'] } {
  if (e instanceof ApiError) {
    if (e.status === 400) {
      const errors = fieldErrorFromService(e.message);
      if (errors) return { errors };
    }
    if (e.status === 402) {
      return {
        problem: {
          kind: 'credits',
          text: `Not enough credits for a live screening (${formatNumber(SCREEN_COST)} credits). Add credits, or switch to Test to screen for free.`,
        },
      };
    }
    if (e.status === 403) return { problem: { kind: 'plan', text: 'Screening is part of the Pro and Enterprise plans.' } };
    if (e.status === 503) return { problem: { kind: 'unavailable', text: 'The lists are not loaded yet. Try again in a moment.' } };
  }
  return { problem: { kind: 'other', text: errorText(e) } };
}

export function ScreeningScreen() {
  const location = useLocation();
  if (location.rest[0] === 'update-lists') return <UpdatingListsPage />;
  return <SubjectScreening />;
}

/** Screening one person, with the lists loaded beside the form. */
function SubjectScreening() {
  const env = useEnv((s) => s.env);
  const plan = usePlan();
  const allowed = planIncludes(plan, 'compliance');
  const lists = useLists();
  const [state, dispatch] = useReducer(reducer, INITIAL);
  const formRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const request = useRef<AbortController | null>(null);


  // A refusal in one environment (no credits in live) says nothing about the other.
  useEffect(() => dispatch({ type: 'dismiss' }), [env]);

  // Leaving the screen drops an answer still on its way.
  useEffect(() => () => request.current?.abort(), []);

  // A new result takes keyboard and screen-reader users to it.
  useEffect(() => {
    const heading = headingRef.current;
    if (!state.done || !heading) return;
    heading.focus({ preventScroll: true });
    // Scroll only the screen's own scroller: scrollIntoView would also nudge the app frame.
    const section = heading.closest('section');
    const scroller = document.getElementById('main');
    if (section && scroller) {
      scroller.scrollTop += section.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 16;
    }
  }, [state.done]);

  const titles = useMemo(() => new Map((lists.data?.lists ?? []).map((l) => [l.source, l.title])), [lists.data]);
  const loaded = lists.data?.state === 'ready' ? lists.data.loaded_kinds : [];

  const focusField = (errors: FieldErrors) => {
    const first = FIELD_ORDER.find((f) => errors[f]);
    if (!first) return;
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[data-testid="${FIELD_TESTID[first]}"]`)?.focus());
  };

  const submit = async () => {
    if (state.busy) return;
    const errors = validate(state.draft, loaded);
    if (Object.keys(errors).length > 0) {
      dispatch({ type: 'invalid', errors });
      focusField(errors);
      return;
    }
    const { draft } = state;
    const subject: ScreenedSubject = {
      name: [draft.first_name, draft.middle_name, draft.last_name].map((s) => s.trim()).filter(Boolean).join(' '),
      date_of_birth: draft.date_of_birth,
      country: draft.country.trim().toUpperCase(),
    };
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    dispatch({ type: 'start' });
    try {
      const result = await screeningApi.screen(env, toRequest(draft, loaded), controller.signal);
      if (controller.signal.aborted) return;
      dispatch({ type: 'done', result, subject });
    } catch (e) {
      if (controller.signal.aborted) return;
      const failed = problemOf(e);
      dispatch({ type: 'failed', ...failed });
      if (failed.errors) focusField(failed.errors);
      if (failed.problem?.kind === 'unavailable') lists.refresh();
    } finally {
      if (request.current === controller) request.current = null;
    }
  };

  const clear = () => {
    request.current?.abort();
    request.current = null;
    dispatch({ type: 'clear' });
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[data-testid="screen-first-name"]')?.focus());
  };

  const { problem } = state;

  return (
    <>
      <ScreenHeader
        title="Screening"
        summary="Screen a person against the sanctions and watchlists loaded on this computer. What you enter and the result stay on this screen only: leaving it, or Clear, forgets both."
      />

      {allowed ? null : (
        <Alert tone="info" testId="screening-plan" title="Screening is part of the Pro and Enterprise plans.">
          Your organization is on the {PLAN_INFO[plan].label} plan. See <a href={href('plan')}>Plan &amp; credits</a>.
        </Alert>
      )}

      {allowed ? <StaleListsBanner /> : null}

      <div className="scr-top">
        <section className="panel scr-form-panel" aria-labelledby="scr-form-heading">
          <div className="panel-header">
            <h2 id="scr-form-heading">Subject</h2>
            <span className="muted scr-small">Individual · nothing you type is stored</span>
          </div>
          <div className="scr-form-body" ref={formRef}>
            <SubjectForm
              draft={state.draft}
              errors={state.errors}
              env={env}
              lists={lists.data}
              busy={state.busy}
              allowed={allowed}
              hasResult={state.done !== null}
              notice={
                problem ? (
                  <Alert testId="screening-error" title={problem.kind === 'other' ? 'Could not screen.' : undefined}>
                    {problem.text}
                    {problem.kind === 'credits' || problem.kind === 'plan' ? (
                      <>
                        {' '}
                        <a href={href('plan')}>Plan &amp; credits</a>
                      </>
                    ) : null}
                  </Alert>
                ) : null
              }
              onChange={(field, value) => dispatch({ type: 'edit', field, value })}
              onToggleKind={(kind, checked) => dispatch({ type: 'kind', kind, checked })}
              onSubmit={() => void submit()}
              onClear={clear}
            />
          </div>
        </section>
        <ListsPanel />
      </div>

      {state.done ? (
        <ScreeningResultView result={state.done.result} subject={state.done.subject} titles={titles} headingRef={headingRef} />
      ) : null}
    </>
  );
}
