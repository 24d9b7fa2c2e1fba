import { useState } from 'react';
import { CVSS31_BASE_METRICS } from '@shared/rules/cvss';
import { Dialog } from '../../../components/Dialog';
import {
  choicesFromVector,
  CVSS_VALUE_LABELS,
  scoreOfChoices,
  scoreText,
  type CvssChoices,
} from '../../../lib/cvss-state';
import { ownValue } from '@shared/lookup/own';

interface CvssCalculatorProps {
  vector: string;
  onApply(vector: string): void;
  onClose(): void;
}

/** One radio group per base metric; the score follows every choice. */
export function CvssCalculator({ vector, onApply, onClose }: CvssCalculatorProps) {
  const [choices, setChoices] = useState<CvssChoices>(() => choicesFromVector(vector));
  const score = scoreOfChoices(choices);
  return (
    <Dialog title="CVSS 3.1 calculator" onClose={onClose} className="cvss-dialog">
      <div className="cvss-grid">
        {CVSS31_BASE_METRICS.map((m) => (
          <div key={m.metric} role="radiogroup" aria-label={m.name} className="cvss-metric">
            <span className="cvss-metric-name" aria-hidden="true">
              {m.name}
            </span>
            <div className="cvss-options">
              {m.values.map((value) => (
                <label key={value} className="cvss-option">
                  <input
                    type="radio"
                    name={`cvss-${m.metric}`}
                    checked={choices[m.metric] === value}
                    onChange={() => setChoices((c) => ({ ...c, [m.metric]: value }))}
                  />
                  {ownValue(CVSS_VALUE_LABELS[m.metric], value) ?? value} ({value})
                </label>
              ))}
            </div>
          </div>
        ))}
      </div>
      <p className="cvss-score" aria-live="polite">
        {score
          ? scoreText(score.score, score.severity)
          : 'Choose a value for every metric to get a score.'}
      </p>
      {score ? <p className="mono">{score.vector}</p> : null}
      <div className="action-row">
        <button
          type="button"
          className="primary"
          disabled={!score}
          onClick={() => {
            if (score) onApply(score.vector);
          }}
        >
          Use this vector
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
