/**
 * The formula field (docs/platform-telemetry.md "Editor"): a text area that completes, as you type, the mounted
 * devices' `alias.key` names and the functions (↑/↓ and Enter or a click choose one), and marks a problem at its place
 * in the text with the reason beneath.
 */
import type { TFormulaProblem } from '@tessera/contracts';
import { AutoComplete, Input, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemText } from '../../platform-rules/model/problems';
import { applyCompletion, completionsFor, type TEditorDevice, wordAtCaret } from '../model/formula';

const OPTION = '\u0000completion:';

/** Props: the formula (a controlled form field), the mounted devices, and the problem the last preview found. */
export interface TFormulaEditorProps {
  value?: string;
  onChange?: (value: string) => void;
  devices: readonly TEditorDevice[];
  problem: TFormulaProblem | null;
}

/** The editor. */
export function FormulaEditor({ value = '', onChange, devices, problem }: TFormulaEditorProps) {
  const { t } = useTranslation();
  const area = useRef<TextAreaRef>(null);
  const [caret, setCaret] = useState(0);
  const [open, setOpen] = useState(false);
  const word = useMemo(() => wordAtCaret(value, caret), [value, caret]);
  const completions = useMemo(() => completionsFor(word, devices).slice(0, 30), [word, devices]);
  const readCaret = () => setCaret(area.current?.resizableTextArea?.textArea.selectionStart ?? value.length);

  const choose = (option: string) => {
    const chosen = completions[Number(option.slice(OPTION.length))];
    if (!chosen || !word) return;
    const next = applyCompletion(value, word, chosen.value);
    onChange?.(next.text);
    setCaret(next.caret);
    requestAnimationFrame(() => {
      const el = area.current?.resizableTextArea?.textArea;
      el?.focus();
      el?.setSelectionRange(next.caret, next.caret);
    });
  };

  return (
    <div>
      <AutoComplete
        value={value}
        options={completions.map((c, i) => ({
          value: `${OPTION}${i}`,
          label: (
            <span data-testid={`formula-completion-${c.value}`}>
              <Typography.Text code>{c.value}</Typography.Text>{' '}
              <Typography.Text type="secondary">{c.kind === 'function' ? t('platformTelemetry.function') : c.detail}</Typography.Text>
            </span>
          ),
        }))}
        onChange={(next: string) => {
          if (!next.startsWith(OPTION)) onChange?.(next);
        }}
        onSelect={choose}
        onOpenChange={setOpen}
        open={open && completions.length > 0}
        defaultActiveFirstOption
        style={{ width: '100%' }}
      >
        <Input.TextArea
          ref={area}
          rows={3}
          spellCheck={false}
          status={problem ? 'error' : undefined}
          style={{ fontFamily: 'monospace' }}
          onKeyDown={(e) => {
            // Enter takes the highlighted completion while the list is open, instead of starting a new line.
            if (e.key === 'Enter' && open && completions.length > 0) e.preventDefault();
          }}
          onKeyUp={readCaret}
          onClick={readCaret}
          onInput={readCaret}
          placeholder={t('platformTelemetry.formulaPlaceholder')}
          data-testid="pt-formula"
        />
      </AutoComplete>
      {problem && (
        <div data-testid="formula-problem" data-position={problem.position ?? ''} style={{ marginTop: 4 }}>
          {problem.position !== null && (
            <pre style={{ margin: 0, fontFamily: 'monospace', whiteSpace: 'pre-wrap' }}>
              {value.slice(0, problem.position)}
              <mark data-testid="formula-problem-mark" style={{ background: 'var(--ant-color-error-bg, #fff1f0)', color: '#cf1322' }}>
                {value.slice(problem.position, problem.position + 1) || ' '}
              </mark>
              {value.slice(problem.position + 1)}
            </pre>
          )}
          <Typography.Text type="danger">
            {problem.position !== null ? t('platformTelemetry.problemAt', { position: problem.position + 1 }) : ''}
            {problemText(t, problem)}
          </Typography.Text>
        </div>
      )}
    </div>
  );
}
