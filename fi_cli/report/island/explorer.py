"""The explorer section of a report: when a study plays many islands, what makes one hard?

Each island is described by its layout features (fi_cli.island.layout_features) and its win rate. The
section has a table of islands ranked by win rate (1 = hardest) with Wilson intervals, and a logistic
regression of the win on the standardised features. Games of one island are not independent draws of
"an island": they share everything about it that the features miss. So the model is fitted on the
islands' counts (a binomial GLM, one row per island and slice) with standard errors that are
cluster-robust by island (statsmodels, with t intervals over the islands); the naive game-level errors
would be too small by about the square root of the dispersion reported with the model.

A *slice* is a set of scenarios that differ only in their layout (e.g. all islands at Normal); with several
slices the model gets one intercept per slice, and ranks are made within a slice.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from fi_cli.island.layout_features import PIN_FEATURES, SHAPE_FEATURES, describe, layout_features
from fi_cli.sim.layout_files import layout_from_dict

from ..load import ReportData
from ..stats import ALPHA

MIN_LAYOUTS = 8  # a report gains the explorer section from this many distinct layouts on
MODEL_FEATURES = (*SHAPE_FEATURES, *PIN_FEATURES)
CURVE_POINTS = 60


@dataclass
class Explorer:
    islands: pd.DataFrame  # one row per scenario: its layout, slice, games, wins, rate, interval, rank, features
    model: pd.DataFrame  # one row per feature in the model: coefficient per SD with its interval, odds ratio, p;
    # and the same feature's coefficient alone (a model of that feature and the slices): coef_alone, ci_*_alone
    curves: pd.DataFrame  # feature, slice, x, win_rate: each feature's own logistic fit (with the slices)
    features: list[str]  # the features in the model, in order
    notes: list[str] = field(default_factory=list)  # features left out and why, and what the fit says
    fit: dict[str, float] = field(default_factory=dict)  # islands, games, deviance_explained, dispersion

    @property
    def slices(self) -> list[str]:
        return list(dict.fromkeys(self.islands["slice_label"]))


def applies(data: ReportData) -> bool:
    """Whether the runs play enough distinct layouts for the explorer section."""
    return data.info["layout"].nunique() >= MIN_LAYOUTS


def island_table(data: ReportData, rates: pd.DataFrame) -> pd.DataFrame:
    """Per scenario: layout, slice, games, wins, win rate with its interval, rank in its slice, features."""
    info = data.info.set_index("scenario")
    r = rates.set_index("scenario")
    feats = {lid: layout_features(layout_from_dict(lay)) if lay.get("cells") else {}
             for lid, lay in data.layouts.items()}
    rows = []
    for sc in data.scenarios:
        i = info.loc[sc]
        rows.append({"scenario": sc, "label": i["label"], "layout": i["layout"], "island": i["layout_name"],
                     "slice": i["slice"], "slice_label": i["slice_label"], "games": int(r.loc[sc, "games"]),
                     "wins": int(r.loc[sc, "wins"]), "win_rate": r.loc[sc, "win_rate"],
                     "ci_low": r.loc[sc, "ci_low"], "ci_high": r.loc[sc, "ci_high"], **feats[i["layout"]]})
    out = pd.DataFrame(rows)
    slice_order = out["slice"].map({s: i for i, s in enumerate(dict.fromkeys(out["slice"]))})
    order = out.assign(_s=slice_order).sort_values(["_s", "win_rate", "label"], kind="stable")
    out.loc[order.index, "rank"] = order.groupby("_s").cumcount().to_numpy() + 1
    out["rank"] = out["rank"].astype(int)
    first = ["scenario", "label", "layout", "island", "slice", "slice_label", "rank", "games", "wins", "win_rate",
             "ci_low", "ci_high"]
    out = out[first + [c for c in out.columns if c not in first]]
    return out.assign(_s=slice_order).sort_values(["_s", "rank"], kind="stable").drop(columns="_s"
                                                                                    ).reset_index(drop=True)


def _design(islands: pd.DataFrame, features: list[str]) -> pd.DataFrame:
    """Intercept, one indicator per slice but the first, and the features standardised over the rows."""
    x = pd.DataFrame({"intercept": 1.0}, index=islands.index)
    for s in list(dict.fromkeys(islands["slice"]))[1:]:
        x[f"slice: {s}"] = (islands["slice"] == s).astype(float)
    for f in features:
        v = islands[f].astype(float)
        x[f] = (v - v.mean()) / v.std(ddof=0)
    return x


def _usable(islands: pd.DataFrame, notes: list[str]) -> list[str]:
    """The model's features: defined for every island, not constant, not a linear combination of others."""
    used = []
    for f in MODEL_FEATURES:
        if f not in islands or islands[f].isna().any():
            if f in islands:
                notes.append(f"{f} is left out of the model: it is not defined for every island (tiles not "
                             "pinned, or in parts no walk joins)")
            continue
        if islands[f].nunique() < 2:
            notes.append(f"{f} is left out of the model: every island has the same value ({islands[f].iloc[0]:g})")
            continue
        x = _design(islands, [*used, f]).to_numpy()
        if np.linalg.matrix_rank(x) < x.shape[1]:
            notes.append(f"{f} is left out of the model: it is a linear combination of the features before it")
            continue
        used.append(f)
    return used


def _glm(islands: pd.DataFrame, x: pd.DataFrame):
    import statsmodels.api as sm

    y = np.column_stack([islands["wins"], islands["games"] - islands["wins"]])
    return sm.GLM(y, x, family=sm.families.Binomial())


def explore(data: ReportData, rates: pd.DataFrame, alpha: float = ALPHA) -> Explorer:
    """The island table, the regression of win on the standardised features and each feature's own fit."""
    islands = island_table(data, rates)
    notes: list[str] = []
    features = _usable(islands, notes)
    n_layouts = islands["layout"].nunique()
    x = _design(islands, features)
    model = pd.DataFrame(columns=["feature", "description", "mean", "sd", "coef", "ci_low", "ci_high", "odds_ratio",
                                  "p_value", "coef_alone", "ci_low_alone", "ci_high_alone"])
    fit: dict[str, float] = {"islands": n_layouts, "rows": len(islands), "games": int(islands["games"].sum())}
    curves, alone = _alone(islands, features, alpha)
    if features and n_layouts - x.shape[1] >= 3:
        res = _fit(islands, x)
        ci = res.conf_int(alpha)
        model = pd.DataFrame({
            "feature": features, "description": [describe(f) for f in features],
            "mean": [islands[f].mean() for f in features], "sd": [islands[f].std(ddof=0) for f in features],
            "coef": res.params[features].to_numpy(), "ci_low": ci.loc[features, 0].to_numpy(),
            "ci_high": ci.loc[features, 1].to_numpy(), "odds_ratio": np.exp(res.params[features].to_numpy()),
            "p_value": res.pvalues[features].to_numpy()}).merge(alone, on="feature")
        slices_only = _glm(islands, x.drop(columns=features)).fit()
        fit["deviance_explained"] = 1 - res.deviance / slices_only.deviance if slices_only.deviance > 0 else np.nan
        fit["dispersion"] = res.pearson_chi2 / res.df_resid
    elif features:
        notes.append(f"no model: {n_layouts} islands are too few for {x.shape[1]} parameters (at least 3 more "
                     "islands than parameters are needed)")
    return Explorer(islands=islands, model=model, curves=curves, features=features, notes=notes, fit=fit)


def _fit(islands: pd.DataFrame, x: pd.DataFrame):
    """The binomial GLM on the islands' counts, standard errors cluster-robust by island (t intervals)."""
    groups = pd.factorize(islands["layout"])[0]
    return _glm(islands, x).fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=True)


def _alone(islands: pd.DataFrame, features: list[str], alpha: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each feature on its own (with the slices): the win rate its logistic regression predicts over the
    feature's range, per slice (curves), and its coefficient per SD with the interval (one row per feature)."""
    rows, coefs = [], []
    slices = list(dict.fromkeys(islands["slice"]))
    for f in features:
        x = _design(islands, [f])
        res = _fit(islands, x)
        lo, hi = res.conf_int(alpha).loc[f]
        coefs.append({"feature": f, "coef_alone": res.params[f], "ci_low_alone": lo, "ci_high_alone": hi})
        v = islands[f].astype(float)
        grid = np.linspace(v.min(), v.max(), CURVE_POINTS)
        for s in slices:
            g = pd.DataFrame({c: 0.0 for c in x.columns}, index=range(CURVE_POINTS))
            g["intercept"] = 1.0
            if f"slice: {s}" in g:
                g[f"slice: {s}"] = 1.0
            g[f] = (grid - v.mean()) / v.std(ddof=0)
            label = islands.loc[islands["slice"] == s, "slice_label"].iloc[0]
            rows.append(pd.DataFrame({"feature": f, "slice": s, "slice_label": label, "x": grid,
                                      "win_rate": res.predict(g[x.columns])}))
    curves = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(
        columns=["feature", "slice", "slice_label", "x", "win_rate"])
    return curves, pd.DataFrame(coefs, columns=["feature", "coef_alone", "ci_low_alone", "ci_high_alone"])


def model_sentences(ex: Explorer) -> list[str]:
    """What the model says, in words: the features whose interval excludes 0, the fit, the caveat."""
    if ex.model.empty:
        return ex.notes
    out = []
    clear = ex.model[(ex.model["ci_low"] > 0) | (ex.model["ci_high"] < 0)].sort_values("coef")
    for r in clear.itertuples():
        way = "more wins" if r.coef > 0 else "fewer wins"
        out.append(f"{r.feature} ({r.description}): one standard deviation more ({r.sd:.2g}) goes with {way}, "
                   f"odds x{r.odds_ratio:.2f} (log-odds {r.coef:+.2f} [{r.ci_low:+.2f}, {r.ci_high:+.2f}]), "
                   "the other features held fixed.")
    if clear.empty:
        out.append("No feature's 95% interval excludes zero once the others are held fixed.")
    m = ex.model.set_index("feature")
    only_alone = [f for f in m.index if f not in set(clear["feature"])
                  and (m.loc[f, "ci_low_alone"] > 0 or m.loc[f, "ci_high_alone"] < 0)]
    if only_alone:
        corr = ex.islands[list(m.index)].astype(float).corr()
        told = ", ".join(f"{f} {m.loc[f, 'coef_alone']:+.2f} [{m.loc[f, 'ci_low_alone']:+.2f}, "
                         f"{m.loc[f, 'ci_high_alone']:+.2f}]" for f in only_alone)
        twins = {f: corr[f].drop(f).abs().idxmax() for f in only_alone}  # its most correlated other feature
        links = ", ".join(f"{f} with {g} r = {corr.loc[f, g]:.2f}" for f, g in twins.items())
        out.append(f"On its own each of these goes with the win rate (log-odds per SD): {told}; but not once the "
                   f"other features are held fixed, as they measure much the same as others ({links}).")
    f = ex.fit
    out.append(f"The features explain {100 * f['deviance_explained']:.0f}% of the deviance between islands left "
               f"by the slices alone ({f['islands']:.0f} islands, {f['games']:,.0f} games). Pearson dispersion "
               f"{f['dispersion']:.2f}: above 1, islands differ more than the features say, which is why the "
               "intervals are cluster-robust by island rather than counting every game as independent.")
    return out + ex.notes
